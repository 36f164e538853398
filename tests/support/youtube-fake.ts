// Starts the fake of Google (OAuth + YouTube Data API) and points the app's configuration at it. Import it FIRST
// in a test file: the app reads its environment once, when its first module loads.
import { FakeYoutube } from "../fakes/youtube";

export const YOUTUBE_TEST_CHUNK = 256 * 1024;
export const fake = new FakeYoutube();
await fake.start();
Object.assign(process.env, fake.env(), { YOUTUBE_UPLOAD_CHUNK_BYTES: String(YOUTUBE_TEST_CHUNK) });
