-- CreateTable
CREATE TABLE "ClipSettings" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "runwayApiKeyEnc" TEXT,
    "monthlyBudgetCents" INTEGER,
    "videoCapCents" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ClipSettings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClipGeneration" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "cellIndex" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "seconds" INTEGER NOT NULL,
    "costCents" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClipGeneration_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ClipSettings_userId_key" ON "ClipSettings"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ClipGeneration_jobId_key" ON "ClipGeneration"("jobId");

-- CreateIndex
CREATE INDEX "ClipGeneration_userId_createdAt_idx" ON "ClipGeneration"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "ClipGeneration_projectId_idx" ON "ClipGeneration"("projectId");
