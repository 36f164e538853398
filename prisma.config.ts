import { defineConfig } from "prisma/config";

// Used by `prisma generate` (the only Prisma CLI command that works offline). Migrations run through
// scripts/db.mjs, which reads the same schema and migrations folder.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    url: process.env.DATABASE_URL ?? "postgresql://postgres:postgres@127.0.0.1:54329/reelsmith",
  },
});
