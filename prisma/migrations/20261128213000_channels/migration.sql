-- CreateTable
CREATE TABLE "Channel" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "kit" JSONB NOT NULL,
    "schedule" JSONB NOT NULL,
    "approval" TEXT NOT NULL DEFAULT 'manual',
    "leadHours" INTEGER NOT NULL DEFAULT 24,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "workflowId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Channel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChannelAccount" (
    "id" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "connectionRef" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChannelAccount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChannelIdea" (
    "id" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'typed',
    "position" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "slotAt" TIMESTAMP(3),
    "runId" TEXT,
    "approvedAt" TIMESTAMP(3),
    "publishedAt" TIMESTAMP(3),
    "youtubeUrl" TEXT,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChannelIdea_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Channel_userId_createdAt_idx" ON "Channel"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelAccount_channelId_platform_connectionRef_key" ON "ChannelAccount"("channelId", "platform", "connectionRef");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelIdea_runId_key" ON "ChannelIdea"("runId");

-- CreateIndex
CREATE INDEX "ChannelIdea_channelId_position_idx" ON "ChannelIdea"("channelId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelIdea_channelId_slotAt_key" ON "ChannelIdea"("channelId", "slotAt");

-- AddForeignKey
ALTER TABLE "Channel" ADD CONSTRAINT "Channel_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChannelAccount" ADD CONSTRAINT "ChannelAccount_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChannelIdea" ADD CONSTRAINT "ChannelIdea_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChannelIdea" ADD CONSTRAINT "ChannelIdea_runId_fkey" FOREIGN KEY ("runId") REFERENCES "VideoRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;
