-- CreateTable
CREATE TABLE "SceneCheck" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "cellIndex" INTEGER NOT NULL,
    "imageUrl" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "passed" BOOLEAN NOT NULL,
    "reason" TEXT NOT NULL,
    "suggestedPrompt" TEXT,
    "checkedBy" TEXT NOT NULL,
    "checkedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SceneCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SceneCheck_projectId_cellIndex_key" ON "SceneCheck"("projectId", "cellIndex");
