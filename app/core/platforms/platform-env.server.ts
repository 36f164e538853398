// The TikTok and Instagram apps' credentials and endpoints, from the environment (decision 216). The endpoints
// default to the platforms' own hosts; the tests point them at tests/fakes/tiktok.ts and tests/fakes/instagram.ts.
import { z } from "zod";

const optionalSecret = z.string().trim().min(1).optional();

export const PlatformEnvSchema = z.object({
  /** The TikTok app's client key and secret (developers.tiktok.com, Login Kit + Content Posting API). */
  TIKTOK_CLIENT_KEY: optionalSecret,
  TIKTOK_CLIENT_SECRET: optionalSecret,
  /** "true" once TikTok has audited the app: until then every post is private (SELF_ONLY). */
  TIKTOK_APP_AUDITED: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  TIKTOK_AUTHORIZE_URL: z.url().default("https://www.tiktok.com/v2/auth/authorize/"),
  TIKTOK_API_BASE_URL: z.url().default("https://open.tiktokapis.com"),
  /** The Instagram app's id and secret (Instagram API with Instagram Login). */
  INSTAGRAM_APP_ID: optionalSecret,
  INSTAGRAM_APP_SECRET: optionalSecret,
  INSTAGRAM_AUTHORIZE_URL: z.url().default("https://www.instagram.com/oauth/authorize"),
  INSTAGRAM_TOKEN_URL: z.url().default("https://api.instagram.com/oauth/access_token"),
  /** graph.instagram.com (Instagram Login); graph.facebook.com for an app on Facebook Login for Business. */
  INSTAGRAM_GRAPH_BASE_URL: z.url().default("https://graph.instagram.com"),
  INSTAGRAM_API_VERSION: z.string().regex(/^v\d+\.\d+$/).default("v21.0"),
  /** Seconds between two status polls of a post being processed (the platforms suggest about a minute). */
  PLATFORM_POLL_SECONDS: z.coerce.number().min(0.05).max(300).default(30),
});

export type PlatformEnv = z.output<typeof PlatformEnvSchema>;

/** Read on each call (cheap), so a test can change the environment before the first post. */
export function platformEnv(): PlatformEnv {
  const parsed = PlatformEnvSchema.safeParse(process.env);
  if (!parsed.success) throw new Error(`TikTok/Instagram settings: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
  return parsed.data;
}

export const tiktokConfigured = (env = platformEnv()) => Boolean(env.TIKTOK_CLIENT_KEY && env.TIKTOK_CLIENT_SECRET);
export const instagramConfigured = (env = platformEnv()) => Boolean(env.INSTAGRAM_APP_ID && env.INSTAGRAM_APP_SECRET);
