// Starts the fakes of TikTok and Instagram (tests/fakes/tiktok.ts, tests/fakes/instagram.ts) and points the app's
// configuration at them. Import it FIRST in a test file, before any app module reads its environment.
import { FakeInstagram } from "../fakes/instagram";
import { FakeTikTok } from "../fakes/tiktok";

export const tiktok = new FakeTikTok();
export const instagram = new FakeInstagram();
await Promise.all([tiktok.start(), instagram.start()]);
// status polls every 50 ms, so a post's processing takes a moment, not minutes
Object.assign(process.env, tiktok.env(), instagram.env(), { PLATFORM_POLL_SECONDS: "0.05" });
