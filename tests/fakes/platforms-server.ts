// The TikTok and Instagram fakes as a process of their own, for the browser tests: `node --import tsx
// tests/fakes/platforms-server.ts` listens on two random loopback ports and prints one line
// `platforms fake listening <tiktok-url> <instagram-url>`; the app under test is pointed at them (FakeTikTok.env(),
// FakeInstagram.env()). GET <url>/__fake/state on either answers what it received.
import { FakeInstagram } from "./instagram";
import { FakeTikTok } from "./tiktok";

const tiktok = new FakeTikTok();
const instagram = new FakeInstagram();
const [tiktokUrl, instagramUrl] = await Promise.all([tiktok.start(), instagram.start()]);
console.log(`platforms fake listening ${tiktokUrl} ${instagramUrl}`);
const stop = () => void Promise.all([tiktok.stop(), instagram.stop()]).then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
