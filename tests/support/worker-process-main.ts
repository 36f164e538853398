// The entry script of tests/support/worker-process.ts: a worker of the kind named by WORKER_KIND.
//   slow-script      every stage; the text provider is scripted and slow (SCRIPTED_DELAY_MS)
//   slow-storyboard  every stage; the offline image and voice providers, each call delayed (SLOW_PROVIDER_DELAY_MS;
//                    the voice's by SLOW_VOICE_DELAY_MS when set)
//   render           only the render stage
//   all-stages       the real worker, every stage as configured (the YouTube tests point it at the fake)
import { NativeConnection } from "@temporalio/worker";
import { providersFor } from "~/providers/index.server";
import { createScriptActivities } from "../../workflows/activities/script";
import { createStoryboardActivities } from "../../workflows/activities/storyboard";
import { getBrowser, getCompositionBundle } from "../../workflows/engine/render-engine";
import { createWorker } from "../../workflows/worker";
import { scriptedTextProvider, scriptedVoice } from "./scripted-text-provider";
import { createRenderWorker, testWorkflowBundle } from "./temporal";

async function workerFor(kind: string | undefined) {
  switch (kind) {
    case "slow-script": {
      const { provider } = scriptedTextProvider({ delayMs: Number(process.env.SCRIPTED_DELAY_MS ?? 500) });
      return createWorker({ workflowBundlePath: testWorkflowBundle("all"), activities: createScriptActivities({ textProviderFor: async () => provider, speechProviderFor: async () => scriptedVoice }) });
    }
    case "slow-storyboard": {
      const delayMs = Number(process.env.SLOW_PROVIDER_DELAY_MS ?? 600);
      const voiceDelayMs = Number(process.env.SLOW_VOICE_DELAY_MS ?? delayMs);
      const sleep = (ms = delayMs) => new Promise((r) => setTimeout(r, ms));
      const offline = providersFor({});
      const slow = {
        ...offline,
        image: { ...offline.image, generateImage: async (r: Parameters<typeof offline.image.generateImage>[0]) => (await sleep(), offline.image.generateImage(r)) },
        speech: { ...offline.speech, synthesize: async (r: Parameters<typeof offline.speech.synthesize>[0]) => (await sleep(voiceDelayMs), offline.speech.synthesize(r)) },
      };
      return createWorker({ workflowBundlePath: testWorkflowBundle("all"), activities: createStoryboardActivities({ providersFor: async () => slow }) });
    }
    case "all-stages":
      return createWorker({ connection: await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! }), workflowBundlePath: testWorkflowBundle("all") });
    case "render":
      return createRenderWorker(await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! }), process.env.TEMPORAL_TASK_QUEUE!);
    default:
      throw new Error(`Unknown WORKER_KIND ${kind}`);
  }
}

const worker = await workerFor(process.env.WORKER_KIND);
// a benchmark's worker (scripts/bench-fleet.ts) bundles the composition and opens the browser before it says it
// is ready, as the real worker does at start-up, so the first render it takes is not timed with them
if (process.env.WORKER_WARM_UP === "1") await Promise.all([getCompositionBundle(), getBrowser()]);
console.log("worker ready");
await worker.run();
