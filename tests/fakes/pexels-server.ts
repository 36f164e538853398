// The Pexels fake as a process of its own, for the browser tests: `node --import tsx tests/fakes/pexels-server.ts`
// listens on a random loopback port and prints one line `pexels fake listening <url>`. The app under test is
// pointed at it with PEXELS_BASE_URL; the browser test saves E2E_PEXELS_KEY as the creator's key.
import { FakePexels } from "./pexels";

export const E2E_PEXELS_KEY = "pexels-e2e-key-0123456789";

const fake = new FakePexels(E2E_PEXELS_KEY);
const url = await fake.start();
console.log(`pexels fake listening ${url}`);
const stop = () => void fake.stop().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
