// Runs before each integration test file: gives the file a fresh database copied from the migrated template,
// and a data directory of its own, before any app module reads the environment. TEST_STORAGE=s3 also gives it a
// bucket of its own on the test object store and keeps its media there (decision 150); tests that look at media
// files by path (mediaFilePath) need the default local folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { createDatabaseFromTemplate } from "../../scripts/lib/test-servers.mjs";
import { storeMediaInTestBucket } from "./object-store";
import { keepVoiceMeasurements, seedVoiceMeasurements } from "./voice-measurements";

const adminUrl = process.env.TEST_PG_ADMIN_URL;
const template = process.env.TEST_TEMPLATE_DATABASE;
if (!adminUrl || !template || !process.env.TEMPORAL_ADDRESS) {
  throw new Error("Integration tests need the servers `npm test` starts: run them with `npm test -- integration`.");
}

const name = `test_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
process.env.DATABASE_URL = await createDatabaseFromTemplate(adminUrl, template, name);
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-test-"));
seedVoiceMeasurements(process.env.DATA_DIR);
process.env.TEMPORAL_TASK_QUEUE = `test-${name}`;
if (process.env.TEST_STORAGE === "s3") await storeMediaInTestBucket();

afterAll(() => {
  keepVoiceMeasurements(process.env.DATA_DIR!);
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});
