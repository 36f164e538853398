// The Runway fake as a process of its own, for the browser tests: `node --import tsx tests/fakes/ai-clips-server.ts`
// listens on a random loopback port and prints one line `runway fake listening <url>`. The app under test is pointed
// at it with RUNWAY_BASE_URL; the browser test saves E2E_RUNWAY_KEY as the creator's Runway key.
import { FakeRunway } from "./ai-clips";

export const E2E_RUNWAY_KEY = "runway-e2e-key-0123456789";

const fake = new FakeRunway(E2E_RUNWAY_KEY);
const url = await fake.start();
console.log(`runway fake listening ${url}`);
const stop = () => void fake.stop().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
