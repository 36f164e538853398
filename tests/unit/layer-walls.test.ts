// The walls between the layers (decision 185), read from every module's import statements: the web side starts
// workflows by name and takes only types from a workflow module, providers do not reach up into the web's
// helpers, and no two modules of app/, workflows/ and remotion/ load each other round a circle.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join("/");

type Import = { line: number; specifier: string; target: string | null; typeOnly: boolean };

/** The modules under `dir` (tests and the generated Prisma client left out). */
function modulesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "generated" && entry.name !== "node_modules") walk(p);
      } else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        found.push(p);
      }
    }
  };
  walk(path.join(ROOT, dir));
  return found;
}

/** The file a specifier names (`~/` is app/), or null for a package. */
function resolveSpecifier(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.join(ROOT, "app", specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, path.join(base, "index.ts")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return base;
}

/**
 * A module's imports and re-exports, static and dynamic, each marked typeOnly when the compiler erases it
 * (`import type`, or braces holding only `type` names): those never load the module at run time.
 */
function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (node: ts.Node, specifier: string, typeOnly: boolean) =>
    found.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, specifier, target: resolveSpecifier(file, specifier), typeOnly });
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const onlyTypeNames = !!clause && !clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier.text, !!clause?.isTypeOnly || onlyTypeNames);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names = node.exportClause;
      const onlyTypeNames = !!names && ts.isNamedExports(names) && names.elements.length > 0 && names.elements.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier.text, node.isTypeOnly || onlyTypeNames);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0]!)) {
      const dynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const required = ts.isIdentifier(node.expression) && node.expression.text === "require";
      if (dynamicImport || required) add(node, (node.arguments[0] as ts.StringLiteral).text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const inside = (file: string | null, dir: string) => !!file && rel(file).startsWith(`${dir}/`);
const appModules = modulesUnder("app");
const allModules = [...appModules, ...modulesUnder("workflows"), ...modulesUnder("remotion")];
const importsByModule = new Map(allModules.map((file) => [file, importsOf(file)]));
const listed = (file: string, i: Import) => `${rel(file)}:${i.line} imports ${i.specifier}`;

describe("the walls between the layers", () => {
  it("sees the imports it checks: value, type-only, re-exports and dynamic ones", () => {
    // a reader that saw nothing would let every check below pass: it must find what is known to be there
    const of = (file: string) => importsByModule.get(path.join(ROOT, file)) ?? [];
    expect(of("app/server/render.server.ts")).toContainEqual(expect.objectContaining({ specifier: "../../workflows/render", typeOnly: true }));
    expect(of("app/server/render.server.ts")).toContainEqual(expect.objectContaining({ specifier: "../../workflows/shared/render", typeOnly: false }));
    expect(of("workflows/index.ts")).toContainEqual(expect.objectContaining({ specifier: "./render", typeOnly: false }));
    expect(allModules.length).toBeGreaterThan(300);
  });

  it("app/ takes from a workflow or activity module its types only; what it runs comes from workflows/shared", () => {
    const violations = appModules.flatMap((file) =>
      (importsByModule.get(file) ?? []).filter((i) => inside(i.target, "workflows") && !inside(i.target, "workflows/shared") && !i.typeOnly).map((i) => listed(file, i)),
    );
    expect(violations, "start a workflow by its name: startWorkflow<typeof xWorkflow>(\"xWorkflow\", ...) with `import type`").toEqual([]);
  });

  it("providers reach into app/server for the configuration (env.server) only, never the web's /api helpers", () => {
    const violations = appModules
      .filter((file) => inside(file, "app/providers"))
      .flatMap((file) =>
        (importsByModule.get(file) ?? [])
          .filter((i) => (inside(i.target, "app/server") && rel(i.target!) !== "app/server/env.server.ts") || inside(i.target, "app/routes") || inside(i.target, "app/components") || inside(i.target, "workflows"))
          .map((i) => listed(file, i)),
      );
    expect(violations, "move the shared piece down to app/lib (as app/lib/request-body.server.ts) or into app/providers").toEqual([]);
  });

  it("env.server, the one module every layer reads its configuration from, leans on nothing above it", () => {
    const env = path.join(ROOT, "app/server/env.server.ts");
    const violations = (importsByModule.get(env) ?? [])
      .filter((i) => i.target && !inside(i.target, "app/lib") && !inside(i.target, "workflows/shared"))
      .map((i) => listed(env, i));
    expect(violations).toEqual([]);
  });

  it("no modules of app/, workflows/ and remotion/ load each other round a circle", () => {
    // value imports only: a type-only import is erased and loads nothing (decision 185)
    const edges = new Map(allModules.map((file) => [file, (importsByModule.get(file) ?? []).filter((i) => !i.typeOnly && i.target && importsByModule.has(i.target)).map((i) => i.target!)]));
    const circles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const trail: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      trail.push(file);
      for (const next of edges.get(file) ?? []) {
        if (state.get(next) === "open") circles.push([...trail.slice(trail.indexOf(next)), next].map(rel).join(" -> "));
        else if (!state.has(next)) visit(next);
      }
      trail.pop();
      state.set(file, "done");
    };
    for (const file of allModules) if (!state.has(file)) visit(file);
    expect(circles, "move the piece both sides need to the lower layer (app/lib, workflows/shared)").toEqual([]);
  });
});
