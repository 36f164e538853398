import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

// Four projects, run one after another by `npm test` (scripts/test.mjs), which starts the servers they use:
//   unit         pure functions, beside the code (app/**/*.test.ts) and in tests/unit
//   integration  real PostgreSQL (a fresh database per test file) and a real Temporal dev server
//   security     tests/security: issue 20's findings, each proven (real PostgreSQL and Temporal)
//   e2e          Chromium (playwright-core) against the built app

// files npm test runs elsewhere (scripts/test.mjs puts three long integration files in the other lane): vitest's
// --exclude does not reach a project's own exclude list
const excluded = process.env.TEST_EXCLUDE?.split(",").filter(Boolean) ?? [];

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    // every module's transform kept on disk (node_modules/.experimental-vitest-cache, gone with a fresh install) and
    // shared by the suite's vitest runs: unit, integration, e2e, fleet, security and the tail each transformed the same
    // app code again. 36 unit files: 20.7 CPU s without it, 17.5 with it warm (stop 65)
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "workflows/**/*.test.ts", "tests/unit/**/*.test.{ts,tsx}"],
          exclude: ["**/*.integration.test.ts", "node_modules/**"],
          environment: "node",
          // some units synthesise audio or images: seconds of CPU, more when the two cores are shared
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts", "tests/integration/**/*.test.ts"],
          exclude: ["node_modules/**", ...excluded],
          setupFiles: ["tests/support/integration-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // npm test runs two files at a time beside the browser tests (scripts/test.mjs: TEST_INTEGRATION_AT_ONCE);
          // by hand, one at a time
          fileParallelism: Number(process.env.TEST_INTEGRATION_AT_ONCE ?? 1) > 1,
        },
      },
      {
        extends: true,
        test: {
          // issue 20: what an attacker would try, against real PostgreSQL and Temporal (tests/security/README.md)
          name: "security",
          include: ["tests/security/**/*.test.ts"],
          exclude: ["node_modules/**"],
          setupFiles: ["tests/support/integration-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // npm test runs two files at a time (each has its own database and task queue, as the integration files);
          // by hand, one at a time
          fileParallelism: Number(process.env.TEST_INTEGRATION_AT_ONCE ?? 1) > 1,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.e2e.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // a page fills in what it fetches after hydrating: expect.poll's 1 s default was too short on a loaded
          // machine (model-server.e2e, CI of stop 66); a poll that is met returns at once
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
