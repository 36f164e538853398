// The TikTok and Instagram apps' settings (decision 216), as a schema only: app/core/env.server.ts checks them at
// start with every other setting, app/core/platforms/platform-env.server.ts reads them on each post.
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
