-- AlterTable
ALTER TABLE "VideoRun" ADD COLUMN     "batchId" TEXT,
ADD COLUMN     "batchRow" INTEGER;

-- CreateTable
CREATE TABLE "VideoBatch" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "workflowId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VideoBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "VideoBatch_userId_createdAt_idx" ON "VideoBatch"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "VideoRun_batchId_batchRow_idx" ON "VideoRun"("batchId", "batchRow");

-- AddForeignKey
ALTER TABLE "VideoRun" ADD CONSTRAINT "VideoRun_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "VideoBatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VideoBatch" ADD CONSTRAINT "VideoBatch_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
