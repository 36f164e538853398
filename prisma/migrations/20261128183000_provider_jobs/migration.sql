-- CreateTable
CREATE TABLE "ProviderJob" (
    "key" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProviderJob_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "ProviderJob_createdAt_idx" ON "ProviderJob"("createdAt");
