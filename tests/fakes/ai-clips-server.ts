// The AI clip fakes as a process of their own, for the browser tests: `node --import tsx tests/fakes/ai-clips-server.ts`
// starts the Runway fake and the Veo fake (the Gemini API's video routes) on random loopback ports and prints one line
// `runway fake listening <url> veo <url>`. The app under test is pointed at them with RUNWAY_BASE_URL and
// GEMINI_BASE_URL; the browser test saves E2E_RUNWAY_KEY as the creator's Runway key and E2E_GEMINI_KEY as the Gemini key.
import { FakeRunway, FakeVeo } from "./ai-clips";

export const E2E_RUNWAY_KEY = "runway-e2e-key-0123456789";
export const E2E_GEMINI_KEY = "AIzaSy-e2e-veo-key-0123456789";

const runway = new FakeRunway(E2E_RUNWAY_KEY);
const veo = new FakeVeo(E2E_GEMINI_KEY);
const [runwayUrl, veoUrl] = await Promise.all([runway.start(), veo.start()]);
console.log(`runway fake listening ${runwayUrl} veo ${veoUrl}`);
const stop = () => void Promise.all([runway.stop(), veo.stop()]).then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
