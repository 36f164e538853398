-- AlterTable
ALTER TABLE "User" ADD COLUMN     "authIssuer" TEXT,
ADD COLUMN     "authSubject" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "User_authIssuer_authSubject_key" ON "User"("authIssuer", "authSubject");
