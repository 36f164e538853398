// One Prisma client per process, over node-postgres (@prisma/adapter-pg).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "~/generated/prisma/client";
import { getEnv } from "./env.server";

declare global {
  var __reelsmithPrisma: PrismaClient | undefined;
}

export function createPrismaClient(databaseUrl: string) {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}

// Kept on globalThis so Vite's hot reload does not open a new pool on every change.
export const prisma: PrismaClient = (globalThis.__reelsmithPrisma ??= createPrismaClient(getEnv().DATABASE_URL));
