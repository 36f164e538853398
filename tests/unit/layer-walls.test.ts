// The walls between the layers (decisions 185 and 211), read from every module's import statements: the web side
// starts workflows by name and takes only types from a workflow module; the worker's code (workflows/) takes what it
// shares with the web from the core (app/core), never from the web's app/server; the core leans on nothing of the
// web's; providers do not reach up into the web's helpers; and no two modules of app/, workflows/ and remotion/ name
// each other round a circle, type-only imports included. Each rule is also run on an import put back on purpose.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The tree the checks read: the real one, or a small fixture tree written by the test below. */
let root = ROOT;
const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");

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
  if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  return found.sort();
}

/** The file a specifier names (`~/` is app/), or null for a package. */
function resolveSpecifier(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.join(root, "app", specifier.slice(2));
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
const listed = (file: string, i: Import) => `${rel(file)}:${i.line} imports ${i.specifier}`;

/** The folder rule (decision 211): who may import whom, by room. A message when `file` may not import `i`. */
function forbidden(file: string, i: Import): string | null {
  if (!i.target) return null;
  if (inside(file, "workflows") && inside(i.target, "app/server")) return "the worker's code takes the core (app/core), app/lib, app/providers and workflows/shared, never app/server";
  if (inside(file, "app/core") && (inside(i.target, "app/server") || inside(i.target, "app/routes") || inside(i.target, "app/components"))) return "the core never imports the web (app/server, routes, components)";
  if (inside(file, "app/providers") && (inside(i.target, "app/server") || inside(i.target, "app/routes") || inside(i.target, "app/components") || inside(i.target, "workflows"))) return "providers take their configuration from the core, never the web's helpers";
  return null;
}

/** Every circle of `edges` (file -> files it imports), each written `a -> b -> a`. */
function circlesOf(edges: Map<string, string[]>): string[] {
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
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  return circles;
}

/** A tree's modules, their imports and the walls' verdicts: what app/ runs of workflows/, the folder rule, the circles. */
function wallsOf(tree: string) {
  root = tree;
  try {
    const appModules = modulesUnder("app");
    const workerModules = modulesUnder("workflows");
    const allModules = [...appModules, ...workerModules, ...modulesUnder("remotion")];
    const importsByModule = new Map(allModules.map((file) => [file, importsOf(file)]));
    const appRunsWorkflowCode = appModules.flatMap((file) =>
      (importsByModule.get(file) ?? []).filter((i) => inside(i.target, "workflows") && !inside(i.target, "workflows/shared") && !i.typeOnly).map((i) => listed(file, i)),
    );
    const folderRule = allModules.flatMap((file) =>
      (importsByModule.get(file) ?? []).flatMap((i) => {
        const why = forbidden(file, i);
        return why ? [`${listed(file, i)}: ${why}`] : [];
      }),
    );
    // the import graph, type-only imports included: a type circle still ties the modules' rooms to each other
    const graph = new Map(allModules.map((file) => [file, (importsByModule.get(file) ?? []).filter((i) => i.target && importsByModule.has(i.target)).map((i) => i.target!)]));
    return { allModules, importsByModule, appRunsWorkflowCode, folderRule, circles: circlesOf(graph) };
  } finally {
    root = ROOT;
  }
}

const tree = wallsOf(ROOT);
const { allModules, importsByModule } = tree;

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
    expect(tree.appRunsWorkflowCode, "start a workflow by its name: startWorkflow<typeof xWorkflow>(\"xWorkflow\", ...) with `import type`").toEqual([]);
  });

  it("follows the folder rule: workflows/ never imports app/server, the core never the web, providers never the web", () => {
    expect(tree.folderRule, "move what both sides need into app/core (docs/architecture.md)").toEqual([]);
  });

  it("refuses each forbidden import put back on purpose", () => {
    const at = (file: string, specifier: string, typeOnly = false): [string, Import] => {
      const from = path.join(ROOT, file);
      return [from, { line: 1, specifier, target: resolveSpecifier(from, specifier), typeOnly }];
    };
    // each of these was an import of main before the core (issue 46), or is the kind the rule exists for
    expect(forbidden(...at("workflows/activities/make-video.ts", "~/server/make-video.server"))).toMatch(/never app\/server/);
    expect(forbidden(...at("workflows/activities/render.ts", "../../app/server/temporal.server", true))).toMatch(/never app\/server/);
    expect(forbidden(...at("workflows/worker.ts", "~/server/host/web-app.server"))).toMatch(/never app\/server/);
    expect(forbidden(...at("workflows/engine/render-fast.ts", "~/server/render.server"))).toMatch(/never app\/server/);
    expect(forbidden(...at("workflows/worker-interruptions.ts", "../app/server/api.server", true))).toMatch(/never app\/server/);
    expect(forbidden(...at("app/core/projects.server.ts", "~/server/api.server"))).toMatch(/never imports the web/);
    expect(forbidden(...at("app/core/settings.server.ts", "../server/session.server", true))).toMatch(/never imports the web/);
    expect(forbidden(...at("app/core/env.server.ts", "~/routes/site/healthz"))).toMatch(/never imports the web/);
    expect(forbidden(...at("app/providers/text/scenes.ts", "~/server/api.server"))).toMatch(/providers/);
    // and what the rule allows
    expect(forbidden(...at("workflows/activities/render.ts", "~/core/db.server"))).toBeNull();
    expect(forbidden(...at("app/server/render.server.ts", "~/core/db.server"))).toBeNull();
    expect(forbidden(...at("app/providers/text/scenes.ts", "~/core/env.server"))).toBeNull();
    // a circle made of type-only imports is found as well as one of values
    const [a, b, c] = ["app/core/a.server.ts", "app/core/b.server.ts", "workflows/c.ts"].map((f) => path.join(ROOT, f));
    expect(circlesOf(new Map([[a!, [b!]], [b!, [c!]], [c!, [a!]]]))).toEqual(["app/core/a.server.ts -> app/core/b.server.ts -> workflows/c.ts -> app/core/a.server.ts"]);
    expect(circlesOf(new Map([[a!, [b!]], [b!, [c!]], [c!, []]]))).toEqual([]);
  });

  describe("on a small tree of its own, each forbidden import put back on purpose is found", () => {
    const made: string[] = [];
    afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
    /** A fixture tree: the rooms with a few modules that keep the walls, plus `extra` files (path -> text). */
    const fixture = (extra: Record<string, string> = {}) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "layer-walls-"));
      made.push(dir);
      const files: Record<string, string> = {
        "app/server/api.server.ts": 'import { db } from "~/core/db.server";\nexport const answer = db;\n',
        "app/server/render.server.ts": 'import type { renderActivity } from "../../workflows/activities/render";\nimport { RENDER } from "../../workflows/shared/render";\nexport type R = typeof renderActivity;\nexport const r = RENDER;\n',
        "app/core/db.server.ts": "export const db = 1;\n",
        "app/lib/format.ts": "export const format = (n: number) => String(n);\n",
        "app/providers/text.ts": 'import { db } from "~/core/db.server";\nexport const text = db;\n',
        "workflows/shared/render.ts": 'export const RENDER = "render";\n',
        "workflows/activities/render.ts": 'import { db } from "~/core/db.server";\nimport { format } from "../../app/lib/format";\nexport const renderActivity = () => format(db);\n',
        "workflows/engine/render-fast.ts": 'import { db } from "~/core/db.server";\nexport const fast = db;\n',
        "workflows/worker.ts": 'import { renderActivity } from "./activities/render";\nexport const worker = renderActivity;\n',
        "remotion/Root.tsx": "export const Root = () => null;\n",
        ...extra,
      };
      for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
      }
      return wallsOf(dir);
    };

    it("a tree that keeps the walls passes", () => {
      const clean = fixture();
      expect(clean.allModules).toHaveLength(10);
      expect(clean).toMatchObject({ appRunsWorkflowCode: [], folderRule: [], circles: [] });
    });

    it("a workflow or activity importing app/server, type-only or re-exported or loaded late", () => {
      expect(fixture({ "workflows/activities/render.ts": 'import { answer } from "~/server/api.server";\nexport const renderActivity = () => answer;\n' }).folderRule).toEqual([
        "workflows/activities/render.ts:1 imports ~/server/api.server: the worker's code takes the core (app/core), app/lib, app/providers and workflows/shared, never app/server",
      ]);
      expect(fixture({ "workflows/engine/render-fast.ts": 'import type { answer } from "../../app/server/api.server";\nexport const fast: typeof answer = 1;\n' }).folderRule).toEqual([
        expect.stringMatching(/^workflows\/engine\/render-fast\.ts:1 imports \.\.\/\.\.\/app\/server\/api\.server: .*never app\/server$/),
      ]);
      expect(fixture({ "workflows/worker.ts": 'export { answer } from "../app/server/api.server";\n' }).folderRule).toEqual([expect.stringMatching(/^workflows\/worker\.ts:1 imports .*never app\/server$/)]);
      expect(fixture({ "workflows/activities/late.ts": 'export const late = () => import("~/server/api.server");\n' }).folderRule).toEqual([expect.stringMatching(/^workflows\/activities\/late\.ts:1 imports ~\/server\/api\.server: .*never app\/server$/)]);
    });

    it("the core importing app/server, routes or components", () => {
      expect(fixture({ "app/core/projects.server.ts": 'import { answer } from "../server/api.server";\nexport const p = answer;\n' }).folderRule).toEqual([
        "app/core/projects.server.ts:1 imports ../server/api.server: the core never imports the web (app/server, routes, components)",
      ]);
      expect(fixture({ "app/core/env.server.ts": 'import type { Page } from "~/routes/site/page";\nexport type E = Page;\n', "app/routes/site/page.tsx": "export type Page = 1;\n" }).folderRule).toEqual([
        expect.stringMatching(/^app\/core\/env\.server\.ts:1 imports ~\/routes\/site\/page: the core never imports the web/),
      ]);
    });

    it("app/ running a workflow or activity module's code rather than taking its types", () => {
      expect(fixture({ "app/server/render.server.ts": 'import { renderActivity } from "../../workflows/activities/render";\nexport const r = renderActivity;\n' }).appRunsWorkflowCode).toEqual([
        "app/server/render.server.ts:1 imports ../../workflows/activities/render",
      ]);
    });

    it("a circle of type-only imports, as well as one of values", () => {
      const typeCircle = fixture({
        "app/core/a.server.ts": 'import type { B } from "./b.server";\nexport type A = { b?: B };\n',
        "app/core/b.server.ts": 'import { type A } from "./a.server";\nexport type B = { a?: A };\n',
      });
      expect(typeCircle.folderRule).toEqual([]);
      expect(typeCircle.circles).toEqual(["app/core/a.server.ts -> app/core/b.server.ts -> app/core/a.server.ts"]);
      // round three rooms: the core, a stage contract and the core again
      expect(
        fixture({
          "app/core/db.server.ts": 'import { RENDER } from "../../workflows/shared/render";\nexport const db = RENDER.length;\n',
          "workflows/shared/render.ts": 'import type { db } from "~/core/db.server";\nexport const RENDER = "render";\nexport type D = typeof db;\n',
        }).circles,
      ).toEqual(["app/core/db.server.ts -> workflows/shared/render.ts -> app/core/db.server.ts"]);
    });
  });

  it("env.server, the one module every layer reads its configuration from, leans on nothing above it", () => {
    const env = path.join(ROOT, "app/core/env.server.ts");
    const violations = (importsByModule.get(env) ?? [])
      .filter((i) => i.target && !inside(i.target, "app/lib") && !inside(i.target, "workflows/shared"))
      .map((i) => listed(env, i));
    expect(violations).toEqual([]);
  });

  it("no modules of app/, workflows/ and remotion/ name each other round a circle, type-only imports included", () => {
    expect(tree.circles, "move the piece both sides need to the lower layer (app/core, app/lib, workflows/shared)").toEqual([]);
  });
});
