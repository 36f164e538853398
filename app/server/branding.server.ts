// The owner's logo and favicon, shown to every visitor (model GlobalBranding, a single row with id 1).
import { prisma } from "~/core/db.server";

export type GlobalBranding = { customLogoUrl: string | null; customFaviconUrl: string | null };

export async function getGlobalBranding(): Promise<GlobalBranding> {
  const row = await prisma.globalBranding.findUnique({ where: { id: 1 } });
  return { customLogoUrl: row?.customLogoUrl ?? null, customFaviconUrl: row?.customFaviconUrl ?? null };
}

/** Changes the given fields (null removes one); the owner's settings call this. */
export async function setGlobalBranding(patch: Partial<GlobalBranding>): Promise<GlobalBranding> {
  const row = await prisma.globalBranding.upsert({ where: { id: 1 }, create: { id: 1, ...patch }, update: patch });
  return { customLogoUrl: row.customLogoUrl, customFaviconUrl: row.customFaviconUrl };
}
