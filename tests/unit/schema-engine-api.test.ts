// The migrations (scripts/lib/migrations.mjs) drive Prisma's WebAssembly schema engine through its JavaScript API,
// which Prisma does not support for applications and may change in any prerelease (decision 203). This file fails
// when the pinned package stops offering exactly what migrations.mjs calls: the version pinned, the constructor and
// methods with their signatures, the input fields it fills, the wasm-bindgen entry points it instantiates by hand,
// and the adapter helpers it wraps. (That the calls work is shown by every test run: the test servers migrate their
// template database with it, and `npm test -- dbcheck` diffs schema.prisma against the migrations.)
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSchemaEngine } from "../../scripts/lib/migrations.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
const ENGINE = "@prisma/schema-engine-wasm";
// the package exports no package.json: find its folder from a file it does export
const engineDir = path.dirname(require.resolve(`${ENGINE}/schema_engine_bg`));
const declarations = fs.readFileSync(path.join(engineDir, "schema_engine.d.ts"), "utf8");

/** The body of `interface name { ... }` in the engine's declarations, without comments, one field a line. */
function fieldsOf(name: string): string[] {
  const body = new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`).exec(declarations)?.[1];
  if (!body) throw new Error(`the engine no longer declares ${name}`);
  return body
    .replace(/\/\*\*[\s\S]*?\*\//g, "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
}

describe(`the schema engine API migrations.mjs calls (${ENGINE}, decision 203)`, () => {
  it("is the exact version package.json pins", () => {
    const pinned = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies[ENGINE];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+-[\w.-]+$/); // an exact prerelease, never a range
    expect(JSON.parse(fs.readFileSync(path.join(engineDir, "package.json"), "utf8")).version).toBe(pinned);
  });

  it("declares the constructor and the methods with the signatures migrations.mjs uses", () => {
    for (const signature of [
      "static new(options: ConstructorOptions, callback: Function, adapter: object): Promise<SchemaEngine>;",
      "applyMigrations(input: ApplyMigrationsInput): Promise<ApplyMigrationsOutput>;",
      "diff(params: DiffParams): Promise<DiffResult>;",
      "free(): void;",
    ]) {
      expect(declarations).toContain(signature);
    }
    expect(fieldsOf("ConstructorOptions")).toEqual(["datamodels: [string, string][] | undefined;"]);
    expect(fieldsOf("ApplyMigrationsInput")).toEqual(["migrationsList: MigrationList;", "filters: SchemaFilter;"]);
    expect(fieldsOf("ApplyMigrationsOutput")).toEqual(["appliedMigrationNames: string[];"]);
    expect(fieldsOf("MigrationList")).toEqual(["baseDir: string;", "lockfile: MigrationLockfile;", "shadowDbInitScript: string;", "migrationDirectories: MigrationDirectory[];"]);
    expect(fieldsOf("DiffParams")).toEqual(["from: DiffTarget;", "to: DiffTarget;", "script: boolean;", "exitCode: boolean | null;", "filters: SchemaFilter;"]);
    expect(fieldsOf("DiffResult")).toContain("exitCode: number;");
    expect(fieldsOf("SchemaFilter")).toEqual(["externalTables: string[];", "externalEnums: string[];"]);
    expect(declarations).toContain('({ tag: "migrations" } & MigrationList)');
    expect(declarations).toContain('({ tag: "schemaDatamodel" } & SchemasContainer)');
  });

  it("instantiates by hand from its wasm-bindgen files, and the engine class has those methods", async () => {
    const wasm = (await loadSchemaEngine()) as { version(): string; SchemaEngine: { new: unknown; prototype: Record<string, unknown> } };
    expect(typeof wasm.SchemaEngine.new).toBe("function");
    for (const method of ["applyMigrations", "diff", "free"]) expect(typeof wasm.SchemaEngine.prototype[method]).toBe("function");
    // the engine reports the commit its prerelease version names
    const commit = /\.([0-9a-f]{40})$/.exec(JSON.parse(fs.readFileSync(path.join(engineDir, "package.json"), "utf8")).version)?.[1];
    expect(commit && wasm.version()).toContain(commit);
  });

  it("offers the driver adapter helpers migrations.mjs wraps the PostgreSQL adapter with", async () => {
    const utils = await import("@prisma/driver-adapter-utils");
    expect(typeof utils.bindMigrationAwareSqlAdapterFactory).toBe("function");
    expect(utils.ColumnTypeEnum.Character).toBeTypeOf("number");
    const { PrismaPg } = await import("@prisma/adapter-pg");
    expect(typeof PrismaPg.prototype.connect).toBe("function");
    expect(typeof PrismaPg.prototype.connectToShadowDb).toBe("function");
  });
});
