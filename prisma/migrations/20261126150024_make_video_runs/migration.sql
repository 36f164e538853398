-- CreateTable
CREATE TABLE "VideoRun" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "projectId" TEXT,
    "options" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "stage" TEXT NOT NULL DEFAULT 'queued',
    "percent" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "workflowId" TEXT,
    "videoUrl" TEXT,
    "thumbnailUrl" TEXT,
    "youtubeUrl" TEXT,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VideoRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "VideoRun_projectId_key" ON "VideoRun"("projectId");

-- CreateIndex
CREATE INDEX "VideoRun_userId_createdAt_idx" ON "VideoRun"("userId", "createdAt");

-- AddForeignKey
ALTER TABLE "VideoRun" ADD CONSTRAINT "VideoRun_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VideoRun" ADD CONSTRAINT "VideoRun_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
