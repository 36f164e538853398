// providersFor: a saved key selects the cloud adapter, which reads its base URL from the environment.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeElevenLabs } from "../../fakes/elevenlabs";

const fake = new FakeElevenLabs("xi-env-key");

beforeAll(async () => {
  await fake.start();
  process.env.ELEVENLABS_BASE_URL = fake.url;
});
afterAll(() => fake.stop());

describe("providersFor", () => {
  it("uses the offline providers when no key is saved", async () => {
    const { providersFor } = await import("~/providers/index.server");
    const p = providersFor({});
    expect([p.text.source, p.speech.source, p.image.source, p.music.source]).toEqual(["offline", "offline", "offline", "offline"]);
    expect(p.speech.name).toMatch(/Offline/);
  });

  it("uses a cloud provider for each kind whose key is saved, at the configured base URL", async () => {
    const { providersFor } = await import("~/providers/index.server");
    const p = providersFor({ elevenLabsApiKey: " xi-env-key ", geminiApiKey: "g", leonardoApiKey: "", sunoApiKey: "s" });
    expect([p.text.source, p.speech.source, p.image.source, p.music.source]).toEqual(["cloud", "cloud", "offline", "cloud"]);
    const voices = await p.speech.listVoices("premade");
    expect(voices.map((v) => v.name)).toEqual(["Rachel", "George"]);
    expect(fake.requests[0]!.headers["xi-api-key"]).toBe("xi-env-key");
  });
});
