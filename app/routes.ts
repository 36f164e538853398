// Every URL Reelsmith serves, grouped by pipeline stage. remix.config.js hands this to the Remix Vite plugin
// (no file-system routing: a route exists because it is listed here). Each group's files live in
// app/routes/<group>/; a stage's server side is app/server/<stage>.server.ts and its workflow contract
// workflows/shared/<stage>.ts.
import type { DefineRouteFunction, DefineRoutesFunction } from "@remix-run/dev/dist/config/routes";

type Group = (route: DefineRouteFunction) => void;

const auth: Group = (route) => {
  route("/api/login", "routes/auth/api.login.ts");
  route("/api/logout", "routes/auth/api.logout.ts");
  route("/api/auth/callback", "routes/auth/api.auth.callback.ts");
  route("/api/auth/user", "routes/auth/api.auth.user.ts");
  route("/login-failed", "routes/auth/login-failed.tsx");
};

const projects: Group = (route) => {
  route("", "routes/projects/_index.tsx", { index: true });
  route("/dashboard", "routes/projects/dashboard.tsx");
  route("/api/projects", "routes/projects/api.projects.ts");
  route("/api/projects/:id", "routes/projects/api.projects.$id.ts");
  route("/api/projects/:id/open", "routes/projects/api.projects.$id.open.ts");
  route("/api/projects/:id/storyboard", "routes/projects/api.projects.$id.storyboard.ts");
  route("/api/projects/:id/narration", "routes/projects/api.projects.$id.narration.ts");
  route("/api/projects/:id/shorts", "routes/projects/api.projects.$id.shorts.ts");
  route("/api/projects/:id/versions", "routes/projects/api.projects.$id.versions.ts");
  route("/projects/:id/outputs", "routes/projects/projects.$id.outputs.tsx");
  route("/api/media/:id", "routes/projects/api.media.$id.ts");
  route("/api/progress-events", "routes/projects/api.progress-events.ts");
};

const script: Group = (route) => {
  route("/create", "routes/script/create.tsx");
  route("/script", "routes/script/script.tsx");
  route("/api/generate-script", "routes/script/api.generate-script.ts");
  route("/api/script-status", "routes/script/api.script-status.ts");
  route("/api/projects/:id/script", "routes/script/api.projects.$id.script.ts");
  route("/api/speaking-pace", "routes/script/api.speaking-pace.ts");
  route("/api/ai/proofread", "routes/script/api.ai.proofread.ts");
};

const storyboard: Group = (route) => {
  route("/storyboard", "routes/storyboard/storyboard.tsx");
  route("/api/generate-storyboards", "routes/storyboard/api.generate-storyboards.ts");
  route("/api/storyboard-status", "routes/storyboard/api.storyboard-status.ts");
  route("/api/storyboards", "routes/storyboard/api.storyboards.ts");
  route("/api/storyboard-cell", "routes/storyboard/api.storyboard-cell.ts");
  route("/api/ai/generate-image", "routes/storyboard/api.ai.generate-image.ts");
  route("/api/ai/generate-voiceover", "routes/storyboard/api.ai.generate-voiceover.ts");
  route("/api/generate-all-content", "routes/storyboard/api.generate-all-content.ts");
  route("/api/scene-media", "routes/storyboard/api.scene-media.ts");
  route("/api/image-source", "routes/storyboard/api.image-source.ts");
  route("/api/caption-style", "routes/storyboard/api.caption-style.ts");
  route("/api/ai-clips", "routes/storyboard/api.ai-clips.ts");
  route("/api/transitions", "routes/storyboard/api.transitions.ts");
  route("/api/scene-checks", "routes/storyboard/api.scene-checks.ts");
  route("/api/projects/:id/scenes", "routes/storyboard/api.projects.$id.scenes.ts");
};

const music: Group = (route) => {
  route("/music", "routes/music/music.tsx");
  route("/api/music-tracks", "routes/music/api.music-tracks.ts");
  route("/api/music-tracks/generate", "routes/music/api.music-tracks.generate.ts");
  route("/api/music-tracks/:id", "routes/music/api.music-tracks.$id.ts");
  route("/api/music-volume", "routes/music/api.music-volume.ts");
  route("/api/render-background-music", "routes/music/api.render-background-music.ts");
  route("/api/suno-callback", "routes/music/api.suno-callback.ts");
};

const render: Group = (route) => {
  route("/render", "routes/render/render.tsx");
  route("/api/render-video", "routes/render/api.render-video.ts");
  route("/api/render-progress", "routes/render/api.render-progress.ts");
  route("/api/latest-video", "routes/render/api.latest-video.ts");
  route("/api/video-facts", "routes/render/api.video-facts.ts");
  route("/api/delete-videos", "routes/render/api.delete-videos.ts");
  route("/api/rendered-videos/:id/captions/:format", "routes/render/api.rendered-videos.$id.captions.$format.ts");
};

// publish: /upload, /thumbnail, the YouTube connection and upload (routes/publish/)
const publish: Group = (route) => {
  route("/thumbnail", "routes/publish/thumbnail.tsx");
  route("/projects/:id", "routes/publish/projects.$id.tsx");
  route("/api/thumbnails", "routes/publish/api.thumbnails.ts");
  route("/api/generate-thumbnail", "routes/publish/api.generate-thumbnail.ts");
  route("/api/approve-thumbnail", "routes/publish/api.approve-thumbnail.ts");
  route("/api/generate-metadata", "routes/publish/api.generate-metadata.ts");
  route("/upload", "routes/publish/upload.tsx");
  route("/projects/:id/upload", "routes/publish/projects.$id.upload.tsx");
  route("/api/youtube/oauth/authorize", "routes/publish/api.youtube.oauth.authorize.ts");
  route("/api/youtube/oauth/callback", "routes/publish/api.youtube.oauth.callback.ts");
  route("/api/youtube/auth-status", "routes/publish/api.youtube.auth-status.ts");
  route("/api/youtube/disconnect", "routes/publish/api.youtube.disconnect.ts");
  route("/api/youtube/categories", "routes/publish/api.youtube.categories.ts");
  route("/api/youtube/preferred-category", "routes/publish/api.youtube.preferred-category.ts");
  route("/api/youtube/upload", "routes/publish/api.youtube.upload.ts");
  route("/api/youtube/upload-status", "routes/publish/api.youtube.upload-status.ts");
  route("/api/youtube/preflight", "routes/publish/api.youtube.preflight.ts");
};

const billing: Group = (route) => {
  route("/subscription", "routes/billing/subscription.tsx");
  route("/api/subscription/status", "routes/billing/api.subscription.status.ts");
  route("/api/subscription/checkout", "routes/billing/api.subscription.checkout.ts");
  route("/api/subscription/portal", "routes/billing/api.subscription.portal.ts");
  route("/api/subscription/cancel", "routes/billing/api.subscription.cancel.ts");
  route("/api/stripe/webhook", "routes/billing/api.stripe.webhook.ts");
};

const settings: Group = (route) => {
  route("/settings", "routes/settings/settings.tsx");
  route("/settings/legacy", "routes/settings/settings_.legacy.tsx");
  route("/settings/operations", "routes/settings/settings_.operations.tsx");
  route("/api/config", "routes/settings/api.config.ts");
  route("/api/ai-clip-settings", "routes/settings/api.ai-clip-settings.ts");
  route("/api/elevenlabs/voices", "routes/settings/api.elevenlabs.voices.ts");
  route("/api/elevenlabs/default-voices", "routes/settings/api.elevenlabs.default-voices.ts");
  route("/api/voice-sample", "routes/settings/api.voice-sample.ts");
  route("/api/voices", "routes/settings/api.voices.ts");
  route("/api/leonardo/models", "routes/settings/api.leonardo.models.ts");
  route("/api/openai-compatible/models", "routes/settings/api.openai-compatible.models.ts");
  route("/api/upload/:kind", "routes/settings/api.upload.$kind.ts");
  route("/api/upload-logo", "routes/settings/api.upload-logo.ts");
  route("/api/upload-watermark", "routes/settings/api.upload-watermark.ts");
  route("/api/error-logs", "routes/settings/api.error-logs.ts");
  route("/api/global-branding", "routes/settings/api.global-branding.ts");
  route("/api/branding/:id", "routes/settings/api.branding.$id.ts");
  route("/api/projects/:id/cleanup-media", "routes/settings/api.projects.$id.cleanup-media.ts");
  route("/api/api-tokens", "routes/settings/api.api-tokens.ts");
  route("/api/api-tokens/:id", "routes/settings/api.api-tokens.$id.ts");
  route("/api/webhooks", "routes/settings/api.webhooks.ts");
  route("/api/webhooks/:id", "routes/settings/api.webhooks.$id.ts");
};

// the versioned API for programs (issue 32, decisions 160 and 161): token or session, problems as errors
const apiV1: Group = (route) => {
  route("/api/v1/openapi.json", "routes/api-v1/api.v1.openapi-json.ts");
  route("/api/v1/docs", "routes/api-v1/api.v1.docs.ts");
  route("/api/v1/videos", "routes/api-v1/api.v1.videos.ts");
  route("/api/v1/videos/:id", "routes/api-v1/api.v1.videos.$id.ts");
  route("/api/v1/videos/:id/cancel", "routes/api-v1/api.v1.videos.$id.cancel.ts");
  route("/api/v1/social-accounts", "routes/api-v1/api.v1.social-accounts.ts");
  route("/api/v1/videos/:id/posts", "routes/api-v1/api.v1.videos.$id.posts.ts");
  route("/api/v1/videos/:id/publish", "routes/api-v1/api.v1.videos.$id.publish.ts");
  route("/api/v1/videos/:id/:file", "routes/api-v1/api.v1.videos.$id.$file.ts");
  route("/api/v1/batches", "routes/api-v1/api.v1.batches.ts");
  route("/api/v1/batches/:id", "routes/api-v1/api.v1.batches.$id.ts");
  route("/api/v1/batches/:id/retry", "routes/api-v1/api.v1.batches.$id.retry.ts");
  route("/batches", "routes/api-v1/batches.tsx");
  route("/api/v1/voices", "routes/api-v1/api.v1.voices.ts");
  route("/api/v1/channels", "routes/channels/api.v1.channels.ts");
  route("/api/v1/channels/:id", "routes/channels/api.v1.channels.$id.ts");
  route("/api/v1/channels/:id/ideas", "routes/channels/api.v1.channels.$id.ideas.ts");
  route("/api/v1/channels/:id/ideas/:ideaId", "routes/channels/api.v1.channels.$id.ideas.$ideaId.ts");
  route("/api/v1/channels/:id/calendar", "routes/channels/api.v1.channels.$id.calendar.ts");
  route("/channels", "routes/channels/channels.tsx");
  route("/channels/:id", "routes/channels/channels.$id.tsx");
  route("/api/v1/projects/:id/shorts", "routes/api-v1/api.v1.projects.$id.shorts.ts");
  route("/api/v1/projects/:id/versions", "routes/api-v1/api.v1.projects.$id.versions.ts");
  route("/api/v1/projects/:id", "routes/api-v1/api.v1.projects.$id.ts");
  route("/api/v1/projects/:id/render", "routes/api-v1/api.v1.projects.$id.render.ts");
  route("/api/v1/projects/:id/publish", "routes/api-v1/api.v1.projects.$id.publish.ts");
  route("/api/v1/projects/:id/ai-clips", "routes/api-v1/api.v1.projects.$id.ai-clips.ts");
  route("/api/v1/projects/:id/transitions", "routes/api-v1/api.v1.projects.$id.transitions.ts");
  route("/mcp", "routes/api-v1/mcp.ts");
};

/** The site's own: the health check, the favicon and, for any other path, the 'Page Not Found' screen (listed last so every real route wins). */
const site: Group = (route) => {
  route("/healthz", "routes/site/healthz.ts");
  route("/favicon.ico", "routes/site/favicon.ts");
  route("*", "routes/site/$.tsx");
};

// TikTok and Instagram Reels beside YouTube (issue 49): connections, the posts and their states.
const platforms: Group = (route) => {
  route("/api/platforms/:platform/oauth/authorize", "routes/platforms/api.platforms.oauth.authorize.ts");
  route("/api/platforms/:platform/oauth/callback", "routes/platforms/api.platforms.oauth.callback.ts");
  route("/api/platforms/connections", "routes/platforms/api.platforms.connections.ts");
  route("/api/platforms/connections/:id", "routes/platforms/api.platforms.connections.$id.ts");
  route("/api/platforms/connections/:id/creator-info", "routes/platforms/api.platforms.connections.$id.creator-info.ts");
  route("/api/platforms/posts", "routes/platforms/api.platforms.posts.ts");
  route("/api/platforms/posts/:id", "routes/platforms/api.platforms.posts.$id.ts");
};

export const ROUTE_GROUPS = { auth, projects, script, storyboard, music, render, publish, platforms, billing, settings, apiV1, site } as const;

export default function routes(defineRoutes: DefineRoutesFunction) {
  return defineRoutes((route) => {
    for (const group of Object.values(ROUTE_GROUPS)) group(route);
  });
}
