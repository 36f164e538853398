// The servers the test suite runs against: a PostgreSQL of its own (port 54339, data under .data/test-postgres)
// with a migrated template database each test file copies, an in-memory Temporal dev server (port 7239) and an
// object store (versitygw, port 7339; tests/support/object-store.ts gives a test file a bucket of its own).
// TEST_PG_PORT, TEST_TEMPORAL_PORT, TEST_S3_PORT and E2E_PORT move them.
import path from "node:path";
import pg from "pg";
import { DATA_DIR } from "./paths.mjs";
import { embeddedUrl, ensureDatabase, startEmbeddedPostgres } from "./postgres.mjs";
import { applyMigrations } from "./migrations.mjs";
import { startTemporalDevServer } from "./temporal-server.mjs";
import { ensureTemporalCli } from "./temporal-cli.mjs";
import { ensureStripeMock, startStripeMock } from "./stripe-mock.mjs";
import { ensureVersitygw } from "./versitygw.mjs";
import { startObjectStore } from "./object-store.mjs";

// Overridable so that two checkouts (or two people) can run the suite on one machine at once.
export const TEST_PG_PORT = Number(process.env.TEST_PG_PORT ?? 54339);
export const TEST_TEMPORAL_PORT = Number(process.env.TEST_TEMPORAL_PORT ?? 7239);
export const TEST_S3_PORT = Number(process.env.TEST_S3_PORT ?? 7339);
export const TEMPLATE_DATABASE = "reelsmith_template";
/**
 * stripe-mock (HTTP; HTTPS on the next port), moved with the e2e port so parallel checkouts do not collide: two
 * ports per e2e port (3100 gives 3211/3212, 3101 gives 3213/3214), so neighbouring e2e ports never share one.
 */
export const TEST_STRIPE_MOCK_PORT = Number(process.env.TEST_STRIPE_MOCK_PORT ?? 3211 + 2 * (Number(process.env.E2E_PORT ?? 3100) - 3100));

/** Drops the databases earlier test runs made, then (re)creates and migrates the template. */
async function prepareTemplate(port) {
  const admin = new pg.Client({ connectionString: embeddedUrl(port, "postgres") });
  await admin.connect();
  try {
    const old = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'test_%' OR datname = $1", [TEMPLATE_DATABASE]);
    for (const { datname } of old.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  const url = await ensureDatabase(port, TEMPLATE_DATABASE);
  await applyMigrations(url);
}

/**
 * Builds what the test servers run and this machine lacks (the Temporal CLI, stripe-mock, versitygw: Go programs, a
 * few minutes each the first time), one after another and before any server starts: built beside a starting server on
 * two cores, they took its CPU and its time to come up (issue 47). Nothing to do once they are in the per-machine cache.
 */
export async function ensureTestServerTools() {
  await ensureTemporalCli();
  await ensureStripeMock();
  await ensureVersitygw();
}

export async function startTestServers() {
  await ensureTestServerTools();
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(DATA_DIR, `test-postgres-${TEST_PG_PORT}`), port: TEST_PG_PORT });
  await prepareTemplate(TEST_PG_PORT);
  const [temporal, stripeMock, objectStore] = await Promise.all([
    startTemporalDevServer({ port: TEST_TEMPORAL_PORT, headless: true, name: "test-temporal" }),
    startStripeMock({ port: TEST_STRIPE_MOCK_PORT }),
    startObjectStore({ dir: path.join(DATA_DIR, `test-object-store-${TEST_S3_PORT}`), port: TEST_S3_PORT, bucket: "reelsmith-test", fresh: true, name: "test-object-store" }),
  ]);
  return {
    env: {
      TEST_PG_ADMIN_URL: embeddedUrl(TEST_PG_PORT, "postgres"),
      TEST_TEMPLATE_DATABASE: TEMPLATE_DATABASE,
      TEMPORAL_ADDRESS: temporal.address,
      TEST_STRIPE_API_URL: stripeMock.url,
      TEST_S3_ENDPOINT: objectStore.env.S3_ENDPOINT,
      TEST_S3_REGION: objectStore.env.S3_REGION,
      TEST_S3_BUCKET: objectStore.env.S3_BUCKET,
      TEST_S3_ACCESS_KEY_ID: objectStore.env.S3_ACCESS_KEY_ID,
      TEST_S3_SECRET_ACCESS_KEY: objectStore.env.S3_SECRET_ACCESS_KEY,
    },
    async stop() {
      temporal.child?.kill("SIGTERM");
      stripeMock.child?.kill("SIGTERM");
      objectStore.child?.kill("SIGTERM");
      await postgres.stop();
    },
  };
}

/** A fresh database copied from the migrated template; returns its URL. */
export async function createDatabaseFromTemplate(adminUrl, template, name) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
