-- AlterTable
ALTER TABLE "YoutubeConnection" ADD COLUMN     "revokedAt" TIMESTAMP(3),
ADD COLUMN     "scope" TEXT;

-- AlterTable
ALTER TABLE "YoutubeUpload" ADD COLUMN     "bytesUploaded" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "completedAt" TIMESTAMP(3),
ADD COLUMN     "madeForKids" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "sessionUriEnc" TEXT,
ADD COLUMN     "thumbnailError" TEXT,
ADD COLUMN     "thumbnailSet" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "totalBytes" BIGINT;

-- CreateTable
CREATE TABLE "YoutubeOAuthRequest" (
    "id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "codeVerifierEnc" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "YoutubeOAuthRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "YoutubeOAuthRequest_state_key" ON "YoutubeOAuthRequest"("state");

-- CreateIndex
CREATE INDEX "YoutubeOAuthRequest_userId_idx" ON "YoutubeOAuthRequest"("userId");

-- AddForeignKey
ALTER TABLE "YoutubeOAuthRequest" ADD CONSTRAINT "YoutubeOAuthRequest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
