// A database pool of 5 connections for a test file, so that contention shows with a few dozen requests, not
// thousands. Import it before any app module (the pool is sized when db.server.ts is first imported).
process.env.DATABASE_POOL_SIZE = "5";
export {};
