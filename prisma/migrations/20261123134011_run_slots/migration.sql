-- CreateTable
CREATE TABLE "RunSlot" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunSlot_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RunSlot_userId_kind_idx" ON "RunSlot"("userId", "kind");
