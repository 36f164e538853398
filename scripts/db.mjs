// npm run db:migrate            apply pending migrations (= prisma migrate deploy)
// npm run db:migration -- <name> create a migration from schema.prisma (= prisma migrate dev --create-only)
// npm run db:check              fail when schema.prisma has changes that no migration covers
import { openDatabase } from "./lib/database.mjs";
import { applyMigrations, createMigration, uncoveredSchemaChanges } from "./lib/migrations.mjs";

const [command, name] = process.argv.slice(2);
const db = await openDatabase();
try {
  if (command === "migrate") {
    const applied = await applyMigrations(db.url);
    console.log(applied.length ? `applied: ${applied.join(", ")}` : "no pending migrations");
  } else if (command === "migration") {
    if (!name) throw new Error("usage: npm run db:migration -- <name>");
    const dir = await createMigration(db.url, name);
    console.log(dir ? `created prisma/migrations/${dir}/migration.sql` : "schema.prisma has no changes: no migration created");
  } else if (command === "check") {
    const sql = await uncoveredSchemaChanges(db.url);
    if (sql) throw new Error(`schema.prisma has changes that no migration covers. Run: npm run db:migration -- <name>\n${sql}`);
    console.log("migrations match schema.prisma");
  } else {
    throw new Error("usage: node scripts/db.mjs migrate | migration <name> | check");
  }
} catch (e) {
  console.error(e.message);
  process.exitCode = 1;
} finally {
  await db.stop();
}
process.exit();
