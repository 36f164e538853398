-- CreateTable
CREATE TABLE "SceneTransitions" (
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'none',
    "seconds" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "perScene" JSONB NOT NULL DEFAULT '{}',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SceneTransitions_pkey" PRIMARY KEY ("projectId")
);
