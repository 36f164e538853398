// A worker in a process of its own whose text provider is slow, so a test can kill it mid-generation.
// Started by tests/integration/script-workflow.integration.test.ts with the test file's environment.
import { createScriptActivities } from "../../workflows/activities/script";
import { createWorker } from "../../workflows/worker";
import { scriptedTextProvider } from "./scripted-text-provider";

const { provider } = scriptedTextProvider({ delayMs: Number(process.env.SCRIPTED_DELAY_MS ?? 500) });
const worker = await createWorker({ activities: createScriptActivities({ textProviderFor: async () => provider }) });
console.log("worker ready");
await worker.run();
