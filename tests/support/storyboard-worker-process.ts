// A worker in a process of its own whose image and voice providers are slow (the offline ones, delayed), so a
// test can kill it in the middle of Generate All. Started by tests/integration/generate-all-restart.integration.test.ts.
import { providersFor } from "~/providers/index.server";
import { createStoryboardActivities } from "../../workflows/activities/storyboard";
import { createWorker } from "../../workflows/worker";

const delayMs = Number(process.env.SLOW_PROVIDER_DELAY_MS ?? 600);
const sleep = () => new Promise((r) => setTimeout(r, delayMs));
const offline = providersFor({});
const slow = {
  ...offline,
  image: { ...offline.image, generateImage: async (r: Parameters<typeof offline.image.generateImage>[0]) => (await sleep(), offline.image.generateImage(r)) },
  speech: { ...offline.speech, synthesize: async (r: Parameters<typeof offline.speech.synthesize>[0]) => (await sleep(), offline.speech.synthesize(r)) },
};
const worker = await createWorker({ activities: createStoryboardActivities({ providersFor: async () => slow }) });
console.log("worker ready");
await worker.run();
