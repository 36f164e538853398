// What each AI clip model costs, per second of video, in one table (issue 50, decision 224). No I/O: the web side
// shows estimates from it, the worker refuses a request over budget with it and records the spend with it.
// Prices are the services' own list prices for their APIs, read on the date given; update the table (and its date)
// when a service changes them.
/** The AI clip services (app/providers/video). */
export type ClipProviderId = "veo" | "runway";

/** The names the AI clip services sign their clips with (a scene's `imageMadeBy`: "Google Veo (Veo 3.1 Fast)"). */
export const AI_CLIP_MAKERS: Record<ClipProviderId, string> = { veo: "Google Veo", runway: "Runway" };

/** Whether a scene's clip was made by an AI clip service: such a clip is slowed and held to fit its scene, not looped (decision 243). */
export function isAiClip(imageMadeBy: string | null | undefined): boolean {
  return !!imageMadeBy && Object.values(AI_CLIP_MAKERS).some((maker) => imageMadeBy.startsWith(`${maker} (`));
}

export type ClipModelPrice = {
  provider: ClipProviderId;
  model: string;
  label: string;
  /** US cents per second of generated video. */
  centsPerSecond: number;
  /** The clip lengths the model makes, in seconds, shortest first. */
  durations: number[];
  textToVideo: boolean;
  imageToVideo: boolean;
  /** When the price was read, and where. */
  asOf: string;
  source: string;
};

export const CLIP_PRICES: readonly ClipModelPrice[] = [
  {
    provider: "veo",
    model: "veo-3.1-fast-generate-preview",
    label: "Veo 3.1 Fast",
    centsPerSecond: 15,
    durations: [4, 6, 8],
    textToVideo: true,
    imageToVideo: true,
    asOf: "2026-11-28",
    source: "https://ai.google.dev/gemini-api/docs/pricing (Veo 3.1 Fast: $0.15 per second, video with audio)",
  },
  {
    provider: "veo",
    model: "veo-3.1-generate-preview",
    label: "Veo 3.1",
    centsPerSecond: 40,
    durations: [4, 6, 8],
    textToVideo: true,
    imageToVideo: true,
    asOf: "2026-11-28",
    source: "https://ai.google.dev/gemini-api/docs/pricing (Veo 3.1: $0.40 per second, video with audio)",
  },
  {
    provider: "runway",
    model: "gen4_turbo",
    label: "Runway Gen-4 Turbo",
    centsPerSecond: 5,
    durations: [5, 10],
    textToVideo: false,
    imageToVideo: true,
    asOf: "2026-11-28",
    source: "https://docs.dev.runwayml.com/guides/pricing/ (gen4_turbo: 5 credits per second; 1 credit = $0.01)",
  },
];

export const DEFAULT_CLIP_MODEL: Record<ClipProviderId, string> = { veo: "veo-3.1-fast-generate-preview", runway: "gen4_turbo" };

export function clipPrice(provider: ClipProviderId, model?: string): ClipModelPrice {
  const wanted = model ?? DEFAULT_CLIP_MODEL[provider];
  const price = CLIP_PRICES.find((p) => p.provider === provider && p.model === wanted);
  if (!price) throw new Error(`No price is known for ${provider} model ${wanted}`);
  return price;
}

/**
 * The clip length to ask for a scene whose voiceover lasts `sceneSeconds`: the shortest the model makes that covers
 * the scene, else its longest (the renderers carry a shorter clip to the scene's end).
 */
export function clipSecondsFor(price: ClipModelPrice, sceneSeconds: number): number {
  return price.durations.find((d) => d >= sceneSeconds - 1e-6) ?? price.durations.at(-1)!;
}

export type SceneClipEstimate = { cellIndex: number; seconds: number; costCents: number };

/** The estimate per scene and in all, before anything is asked of the service. */
export function estimateClips(price: ClipModelPrice, scenes: { cellIndex: number; sceneSeconds: number }[]) {
  const perScene: SceneClipEstimate[] = scenes.map((s) => {
    const seconds = clipSecondsFor(price, s.sceneSeconds);
    return { cellIndex: s.cellIndex, seconds, costCents: seconds * price.centsPerSecond };
  });
  return { perScene, totalCents: perScene.reduce((sum, s) => sum + s.costCents, 0) };
}

/** "$1.20" */
export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
