-- CreateTable
CREATE TABLE "PublishClaim" (
    "key" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "claimedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "remoteId" TEXT,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "PublishClaim_pkey" PRIMARY KEY ("key")
);
