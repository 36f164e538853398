-- CreateEnum
CREATE TYPE "ImageSource" AS ENUM ('offline', 'leonardo');

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "imageSource" "ImageSource";
