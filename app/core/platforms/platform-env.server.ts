// The TikTok and Instagram apps' credentials and endpoints, from the environment (decision 216). The endpoints
// default to the platforms' own hosts; the tests point them at tests/fakes/tiktok.ts and tests/fakes/instagram.ts.
import { PlatformEnvSchema, type PlatformEnv } from "~/lib/platform-env-schema";

export type { PlatformEnv };

/** Read on each call (cheap), so a test can change the environment before the first post. */
export function platformEnv(): PlatformEnv {
  const parsed = PlatformEnvSchema.safeParse(process.env);
  if (!parsed.success) throw new Error(`TikTok/Instagram settings: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
  return parsed.data;
}

export const tiktokConfigured = (env = platformEnv()) => Boolean(env.TIKTOK_CLIENT_KEY && env.TIKTOK_CLIENT_SECRET);
export const instagramConfigured = (env = platformEnv()) => Boolean(env.INSTAGRAM_APP_ID && env.INSTAGRAM_APP_SECRET);
