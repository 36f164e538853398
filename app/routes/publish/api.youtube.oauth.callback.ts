import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUserId } from "~/server/auth.server";
import { cspNonceOf } from "~/server/host/web-app.server";
import { completeYoutubeAuthorization } from "~/server/youtube.server";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The popup's page after Google's consent screen: tells the opener (the Upload page) and closes itself.
function popupPage(ok: boolean, message: string, status: number, nonce: string | undefined): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${ok ? "YouTube connected" : "YouTube connection failed"}</title>
<style>body{font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:grid;place-items:center;min-height:100vh;margin:0}main{max-width:28rem;padding:2rem;text-align:center}</style></head>
<body><main><h1>${ok ? "YouTube connected" : "YouTube connection failed"}</h1><p>${escapeHtml(message)}</p><p>You can close this window.</p></main>
<script${nonce ? ` nonce="${nonce}"` : ""}>
try { if (window.opener) window.opener.postMessage(${JSON.stringify({ type: "reelsmith:youtube-auth", ok, message })}, window.location.origin); } catch (e) {}
${ok ? "setTimeout(function () { window.close(); }, 300);" : ""}
</script></body></html>`;
  return new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

// GET /api/youtube/oauth/callback?code&state: Google sends the creator back here; the tokens are stored encrypted.
export async function loader({ request, context }: LoaderFunctionArgs) {
  // its script runs under the page's CSP: it carries this response's nonce
  const nonce = cspNonceOf(context);
  const userId = await getUserId(request);
  if (!userId) return popupPage(false, "You are not signed in to Reelsmith in this browser. Sign in, then connect YouTube again.", 401, nonce);
  const outcome = await completeYoutubeAuthorization(request, userId);
  if (!outcome.ok) return popupPage(false, outcome.message, 400, nonce);
  return popupPage(true, outcome.channelTitle ? `Reelsmith can now upload to ${outcome.channelTitle}.` : "Reelsmith can now upload to your channel.", 200, nonce);
}
