import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // AssemblyScript (workflows/engine/wasm): its own types (i32, usize), built by scripts/build-wasm.mjs
  { ignores: ["build/", "dist/", "node_modules/", ".data/", ".bin/", "app/generated/", ".cache/", "**/*.as.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Walls between the layers. Workflow code is replayed deterministically inside Temporal's sandbox, so it may
  // import only the workflow SDK, the stage contracts, browser-safe app/lib, and activity types.
  {
    files: ["workflows/*.ts", "workflows/shared/*.ts"],
    ignores: ["workflows/worker.ts", "workflows/worker-*.ts", "workflows/shared/heartbeat.ts", "**/*.test.ts"],
    rules: {
      "no-restricted-imports": "off",
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!@temporalio/workflow$|\\./shared/|\\./|\\.\\./app/lib/|~/lib/|\\./activities/|\\.\\./activities/).*",
              message: "Workflow files import only @temporalio/workflow, workflows/shared, app/lib and activity types.",
            },
            {
              group: ["./activities/*", "../activities/*", "./activities"],
              allowTypeImports: true,
              message: "Workflows reach activities only through proxyActivities: import their types, never their code.",
            },
            {
              group: ["~/generated/prisma/client", "~/server/*", "~/providers/*", "~/components/*", "~/routes/*"],
              message: "Workflow files stay free of I/O: no server, provider, database or UI modules.",
            },
          ],
        },
      ],
    },
  },
  // The folder rule (decision 211): the worker's code takes what it shares with the web from the core (app/core),
  // app/lib, app/providers and workflows/shared, never from the web's app/server; the core never imports the web.
  // tests/unit/layer-walls.test.ts checks the same rule (type-only imports included) and the circles.
  {
    files: ["workflows/activities/**/*.ts", "workflows/engine/**/*.ts", "workflows/observability/**/*.ts", "workflows/worker.ts", "workflows/worker-*.ts", "workflows/shared/heartbeat.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["~/routes/*", "~/components/*"], message: "The worker never imports routes or UI components." },
            { regex: "^~/server/|/app/server/", message: "The worker imports the core (~/core/*), never app/server: move the shared piece into app/core." },
          ],
        },
      ],
    },
  },
  {
    files: ["app/core/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^~/(server|routes|components)/|^\\.\\./(server|routes|components)/", message: "The core never imports the web (app/server, routes, UI components)." },
          ],
        },
      ],
    },
  },
  // The timeline model is pure (issue 46): the composition draws it, it never draws.
  {
    files: ["app/lib/timeline/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(remotion|@remotion/.*|react|react-dom)$|/remotion/", message: "The timeline model is composition-free: remotion/ imports it, never the other way." }] },
      ],
    },
  },
  {
    files: ["app/server/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["~/components/*", "~/routes/*"], message: "Server modules never import UI components or routes." }] },
      ],
    },
  },
  {
    files: ["app/routes/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["~/providers/*"], message: "Routes reach providers through a server module (app/server/providers.server.ts)." }] },
      ],
    },
  },
  {
    files: ["app/components/**/*.{ts,tsx}", "app/routes/**/*.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+workflows/(?!shared/).*",
              message: "Components take types from workflows/shared/<stage>.ts, never from workflow bodies.",
            },
            { group: ["~/providers/*"], allowTypeImports: true, message: "Components reach providers through the /api routes (types are fine)." },
          ],
        },
      ],
    },
  },
);
