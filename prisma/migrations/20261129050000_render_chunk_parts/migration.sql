-- CreateTable
CREATE TABLE "RenderChunkPart" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "mediaFileId" TEXT NOT NULL,
    "frames" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RenderChunkPart_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RenderChunkPart_mediaFileId_key" ON "RenderChunkPart"("mediaFileId");

-- CreateIndex
CREATE UNIQUE INDEX "RenderChunkPart_projectId_key_key" ON "RenderChunkPart"("projectId", "key");

-- AddForeignKey
ALTER TABLE "RenderChunkPart" ADD CONSTRAINT "RenderChunkPart_mediaFileId_fkey" FOREIGN KEY ("mediaFileId") REFERENCES "MediaFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;
