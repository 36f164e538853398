-- MediaFile.bytes to 64 bits: a stored file of 2 GiB or more (a long render) could not be recorded (decision 187).
-- Widening: every INTEGER value fits a BIGINT unchanged.
-- AlterTable
ALTER TABLE "MediaFile" ALTER COLUMN "bytes" SET DATA TYPE BIGINT;
