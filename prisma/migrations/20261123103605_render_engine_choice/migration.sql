-- AlterTable
ALTER TABLE "RenderedVideo" ADD COLUMN     "renderer" TEXT,
ADD COLUMN     "rendererReason" TEXT;
