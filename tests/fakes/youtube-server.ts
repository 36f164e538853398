// The YouTube fake as a process of its own, for the browser tests: `node --import tsx tests/fakes/youtube-server.ts`
// listens on a random loopback port and prints one line `youtube fake listening <url>`. The app under test is
// pointed at it (FakeYoutube.env()); tests read what it received from GET <url>/__fake/state.
import { FakeYoutube } from "./youtube";

const fake = new FakeYoutube();
const url = await fake.start(Number(process.env.YOUTUBE_FAKE_PORT ?? 0));
console.log(`youtube fake listening ${url}`);
const stop = () => void fake.stop().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
