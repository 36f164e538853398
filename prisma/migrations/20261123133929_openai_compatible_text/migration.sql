-- AlterTable
ALTER TABLE "UserSettings" ADD COLUMN     "openaiApiKeyEnc" TEXT,
ADD COLUMN     "openaiBaseUrl" TEXT,
ADD COLUMN     "openaiModel" TEXT;
