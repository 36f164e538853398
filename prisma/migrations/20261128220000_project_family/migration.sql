-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "derivedFrom" JSONB,
ADD COLUMN     "derivedKind" TEXT,
ADD COLUMN     "sourceProjectId" TEXT;

-- CreateIndex
CREATE INDEX "Project_sourceProjectId_idx" ON "Project"("sourceProjectId");

-- AddForeignKey
ALTER TABLE "Project" ADD CONSTRAINT "Project_sourceProjectId_fkey" FOREIGN KEY ("sourceProjectId") REFERENCES "Project"("id") ON DELETE SET NULL ON UPDATE CASCADE;
