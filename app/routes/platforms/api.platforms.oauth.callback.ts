import type { LoaderFunctionArgs } from "@remix-run/node";
import { PLATFORM_NAMES } from "~/lib/platform-rules";
import { getUserId } from "~/server/auth.server";
import { completePlatformAuthorization } from "~/server/platforms/platform-connections.server";
import { cspNonceOf } from "~/server/host/web-app.server";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// JSON inside <script>: a "</script>" (or "<!--") in the platform's error text must not end the script block
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

// The popup's page after the platform's consent screen: tells the opener (Settings or the publish step) and closes.
function popupPage(name: string, ok: boolean, message: string, status: number, nonce: string | undefined): Response {
  const title = ok ? `${name} connected` : `${name} connection failed`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:grid;place-items:center;min-height:100vh;margin:0}main{max-width:28rem;padding:2rem;text-align:center}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p>You can close this window.</p></main>
<script${nonce ? ` nonce="${nonce}"` : ""}>
try { if (window.opener) window.opener.postMessage(${scriptJson({ type: "reelsmith:platform-auth", ok, message })}, window.location.origin); } catch (e) {}
${ok ? "setTimeout(function () { window.close(); }, 300);" : ""}
</script></body></html>`;
  return new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

// GET /api/platforms/{tiktok|instagram}/oauth/callback?code&state: the platform sends the creator back here.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const nonce = cspNonceOf(context);
  const platform = params.platform;
  if (platform !== "tiktok" && platform !== "instagram") return new Response("Unknown platform", { status: 404 });
  const name = PLATFORM_NAMES[platform];
  const userId = await getUserId(request);
  if (!userId) return popupPage(name, false, `You are not signed in to Reelsmith in this browser. Sign in, then connect ${name} again.`, 401, nonce);
  const outcome = await completePlatformAuthorization(request, userId, platform);
  if (!outcome.ok) return popupPage(name, false, outcome.message, 400, nonce);
  return popupPage(name, true, outcome.accountName ? `Reelsmith can now post to ${outcome.accountName}.` : `Reelsmith can now post to your ${name} account.`, 200, nonce);
}
