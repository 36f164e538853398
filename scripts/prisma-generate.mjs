import { ensurePrismaClient } from "./lib/dependencies.mjs";
ensurePrismaClient({ force: true });
