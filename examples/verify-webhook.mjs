// Verifying a Reelsmith webhook (docs/webhooks.md): copy this function into your receiver. It needs only
// node:crypto. Pass the raw request body (the exact bytes, before any JSON parsing), the Reelsmith-Signature
// header and your endpoint's signing secret (whsec_..., shown once when you added the endpoint).
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * True when `header` (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`) was made with `secret` over this
 * very body, less than `toleranceSeconds` ago. A replayed delivery (an old timestamp) or an altered body fails.
 */
export function verifyReelsmithWebhook(secret, header, rawBody, { toleranceSeconds = 300, now = Date.now() } = {}) {
  if (typeof header !== "string") return false;
  const parts = Object.fromEntries(header.split(",").map((kv) => kv.trim().split("=", 2)));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? "")) return false;
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const body = typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8");
  const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(parts.v1, "hex"));
}

// An Express receiver, for example:
//   app.post("/reelsmith", express.raw({ type: "application/json" }), (req, res) => {
//     if (!verifyReelsmithWebhook(process.env.REELSMITH_WEBHOOK_SECRET, req.get("Reelsmith-Signature"), req.body)) return res.sendStatus(400);
//     const event = JSON.parse(req.body); // { id, type: "video.ready" | "video.failed" | "video.published", created, data }
//     res.sendStatus(200); // answer 2xx within 10 s; anything else is retried with back-off
//   });
