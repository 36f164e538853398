-- CreateTable
CREATE TABLE "RenderPlan" (
    "renderId" TEXT NOT NULL,
    "scenes" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RenderPlan_pkey" PRIMARY KEY ("renderId")
);

-- AddForeignKey
ALTER TABLE "RenderPlan" ADD CONSTRAINT "RenderPlan_renderId_fkey" FOREIGN KEY ("renderId") REFERENCES "RenderedVideo"("id") ON DELETE CASCADE ON UPDATE CASCADE;
