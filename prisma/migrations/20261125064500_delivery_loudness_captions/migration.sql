-- AlterTable
ALTER TABLE "RenderedVideo" ADD COLUMN     "captionCues" JSONB,
ADD COLUMN     "loudnessLufs" DOUBLE PRECISION,
ADD COLUMN     "truePeakDbtp" DOUBLE PRECISION;
