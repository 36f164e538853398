// The embedded identity provider, for local use when OIDC_ISSUER is unset: a real OIDC provider
// (oidc-provider) under /oidc, where a person signs in by typing any e-mail and name. The app signs in
// through it exactly as through Google. Everything it keeps lives in PostgreSQL (decision 133): its state
// (sessions, interactions, codes, grants: PrismaOidcAdapter), its signing key and the accounts it has seen, so a
// sign-in that starts on one web process finishes on any other, and survives restarts. Its cookie keys and client
// secret derive from SESSION_SECRET, which every web process shares.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Request as ExpressRequest, Response as ExpressResponse, Router } from "express";
import type { Account, AdapterPayload, InteractionDetails } from "oidc-provider";
import { z } from "zod";
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";
import { decryptSecret, encryptSecret } from "~/core/encryption.server";
import { getEnv } from "~/core/env.server";

export const EMBEDDED_PROVIDER_PATH = "/oidc";
export const EMBEDDED_CLIENT_ID = "reelsmith";

export function isEmbeddedProviderEnabled(): boolean {
  return !getEnv().OIDC_ISSUER;
}

export function embeddedIssuer(): string {
  return `${getEnv().PUBLIC_URL}${EMBEDDED_PROVIDER_PATH}`;
}

/** Where this server reaches its own provider (discovery, token, userinfo) without leaving the machine. */
export function embeddedProviderInternalUrl(): string {
  return `http://127.0.0.1:${getEnv().PORT}${EMBEDDED_PROVIDER_PATH}`;
}

function derivedSecret(purpose: string): string {
  return crypto.createHmac("sha256", getEnv().SESSION_SECRET).update(purpose).digest("base64url");
}

export function embeddedClientSecret(): string {
  return derivedSecret("embedded-oidc-client-secret");
}

/** The app's callback on every address it may be reached at without PUBLIC_URL (see appOrigin). */
export function embeddedRedirectUris(): string[] {
  const { PUBLIC_URL, PORT } = getEnv();
  const callback = "/api/auth/callback";
  return [...new Set([`${PUBLIC_URL}${callback}`, `http://localhost:${PORT}${callback}`, `http://127.0.0.1:${PORT}${callback}`])];
}

// ---- storage in PostgreSQL ----

/** oidc-provider's models whose rows carry a grantId and go when that grant is revoked. */
const GRANTABLE = new Set(["AccessToken", "AuthorizationCode", "RefreshToken", "DeviceCode", "BackchannelAuthenticationRequest", "PreAuthorizedCode"]);

/**
 * oidc-provider's storage adapter over the OidcPayload table: one row per model and id. A row past its expiry is
 * never returned (and deleted by deleteExpiredOidcState); consume() marks a row used, which find() reports as
 * `consumed` (epoch seconds), as oidc-provider expects.
 */
export class PrismaOidcAdapter {
  constructor(readonly model: string) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const data = {
      // through JSON: Prisma refuses undefined inside a Json value
      payload: JSON.parse(JSON.stringify(payload)) as Prisma.InputJsonValue,
      grantId: GRANTABLE.has(this.model) && typeof payload.grantId === "string" ? payload.grantId : null,
      userCode: typeof payload.userCode === "string" ? payload.userCode : null,
      uid: typeof payload.uid === "string" ? payload.uid : null,
      expiresAt: typeof expiresIn === "number" && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await prisma.oidcPayload.upsert({ where: { model_id: { model: this.model, id } }, create: { model: this.model, id, ...data }, update: data });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return present(await prisma.oidcPayload.findUnique({ where: { model_id: { model: this.model, id } } }));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return present(await prisma.oidcPayload.findFirst({ where: { model: this.model, uid, ...unexpired() } }));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return present(await prisma.oidcPayload.findFirst({ where: { model: this.model, userCode, ...unexpired() } }));
  }

  async consume(id: string): Promise<void> {
    await prisma.oidcPayload.updateMany({ where: { model: this.model, id }, data: { consumedAt: new Date() } });
  }

  async destroy(id: string): Promise<void> {
    await prisma.oidcPayload.deleteMany({ where: { model: this.model, id } });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await prisma.oidcPayload.deleteMany({ where: { model: this.model, grantId } });
  }
}

const unexpired = () => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });

function present(row: { payload: Prisma.JsonValue; expiresAt: Date | null; consumedAt: Date | null } | null): AdapterPayload | undefined {
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
  const payload = row.payload as AdapterPayload;
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

/** Deletes the provider's rows past their expiry; returns how many. */
export async function deleteExpiredOidcState(now = new Date()): Promise<number> {
  const { count } = await prisma.oidcPayload.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}

const SIGNING_KEY_ID = "rs256";
const signingKeyContext = { userId: "oidc-provider", field: "signing-key" };

/** A key an earlier version kept under DATA_DIR/oidc, so tokens it signed stay valid after the upgrade. */
function legacySigningKey(): crypto.JsonWebKey | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(getEnv().DATA_DIR, "oidc", "signing-key.json"), "utf8")) as crypto.JsonWebKey;
  } catch {
    return null;
  }
}

/** The RS256 signing key: created once (by whichever process asks first) and read by every process. */
export async function loadSigningKey(): Promise<crypto.JsonWebKey> {
  let row = await prisma.oidcSigningKey.findUnique({ where: { id: SIGNING_KEY_ID } });
  if (!row) {
    const jwk =
      legacySigningKey() ??
      (() => {
        const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
        return { ...privateKey.export({ format: "jwk" }), kid: crypto.randomUUID(), alg: "RS256", use: "sig" };
      })();
    // two processes starting together: the first insert wins and both read it back
    await prisma.oidcSigningKey.createMany({ data: [{ id: SIGNING_KEY_ID, jwk: encryptSecret(JSON.stringify(jwk), signingKeyContext) }], skipDuplicates: true });
    row = await prisma.oidcSigningKey.findUniqueOrThrow({ where: { id: SIGNING_KEY_ID } });
  }
  return JSON.parse(decryptSecret(row.jwk, signingKeyContext)) as crypto.JsonWebKey;
}

type LocalAccount = { email: string; name: string };

export function accountIdFor(email: string): string {
  return crypto.createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 32);
}

/** Remembers the e-mail and name a person typed; returns their stable subject id. */
export async function rememberAccount(account: LocalAccount): Promise<string> {
  const email = account.email.trim().toLowerCase();
  const id = accountIdFor(email);
  const name = account.name.trim();
  await prisma.oidcAccount.upsert({ where: { id }, create: { id, email, name }, update: { name } });
  return id;
}

export async function findLocalAccount(id: string): Promise<Account | undefined> {
  const account = await prisma.oidcAccount.findUnique({ where: { id } });
  if (!account) return undefined;
  return {
    accountId: id,
    claims: () => ({ sub: id, email: account.email, email_verified: true, name: account.name }),
  };
}

// ---- the sign-in page ----

export const LocalSignInSchema = z.object({
  email: z.email({ message: "Enter an e-mail address, like you@example.com." }),
  name: z.string().trim().min(1, { message: "Enter the name to show in Reelsmith." }).max(100, { message: "Keep the name under 100 characters." }),
});

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Reelsmith</title>
<style>
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#020617;color:#f1f5f9;font-family:system-ui,sans-serif}
main{width:min(26rem,92vw);background:#0f172a;border:1px solid #1e293b;border-radius:.75rem;padding:2rem}
h1{margin:0 0 .5rem;font-size:1.5rem}p{color:#94a3b8;line-height:1.5}label{display:grid;gap:.35rem;margin:1rem 0;font-size:.9rem}
input{padding:.6rem .75rem;border-radius:.375rem;border:1px solid #334155;background:#020617;color:inherit;font-size:1rem}
.row{display:flex;gap:.75rem;margin-top:1.5rem}button,a.button{flex:1;padding:.7rem;border-radius:.375rem;border:0;font-size:1rem;cursor:pointer;text-align:center;text-decoration:none}
.primary{background:#7c3aed;color:#fff}.secondary{background:transparent;color:#f1f5f9;border:1px solid #475569!important}
.error{color:#fca5a5}small{color:#94a3b8}
</style></head><body><main>${body}</main></body></html>`;
}

export function renderSignInPage(uid: string, values: { email?: string; name?: string } = {}, error?: string): string {
  const action = `${EMBEDDED_PROVIDER_PATH}/interaction/${encodeURIComponent(uid)}`;
  return page(
    "Sign in",
    `<h1>Sign in to Reelsmith</h1>
<p>This is Reelsmith's built-in sign-in for local use. Type any e-mail address and name; no password is needed.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="${action}">
<label>E-mail<input type="email" name="email" required autocomplete="email" autofocus value="${escapeHtml(values.email ?? "")}"></label>
<label>Name<input type="text" name="name" required autocomplete="name" maxlength="100" value="${escapeHtml(values.name ?? "")}"></label>
<div class="row"><button class="primary" type="submit">Sign In</button>
<button class="secondary" type="submit" formaction="${action}/abort" formnovalidate>Cancel</button></div>
</form>
<p><small>To sign in with Google or another provider, set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.</small></p>`,
  );
}

function renderErrorPage(out: Record<string, string>): string {
  const lines = Object.entries(out)
    .map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(String(value))}</p>`)
    .join("");
  return page("Sign-in error", `<h1>Sign-in error</h1>${lines}<div class="row"><a class="button primary" href="/">Back to Home</a></div>`);
}

// ---- the provider, mounted by server.ts ----

/** An Express router serving the provider and its sign-in page; mount it at EMBEDDED_PROVIDER_PATH. */
export async function createEmbeddedOidcRouter(): Promise<Router> {
  const [{ default: Provider }, { default: express }] = await Promise.all([import("oidc-provider"), import("express")]);
  const provider = new Provider(embeddedIssuer(), {
    clients: [
      {
        client_id: EMBEDDED_CLIENT_ID,
        client_secret: embeddedClientSecret(),
        redirect_uris: embeddedRedirectUris(),
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    adapter: PrismaOidcAdapter,
    jwks: { keys: [await loadSigningKey()] },
    cookies: { keys: [derivedSecret("embedded-oidc-cookies")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    scopes: ["openid", "email", "profile"],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${EMBEDDED_PROVIDER_PATH}/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => findLocalAccount(sub),
    renderError: (ctx, out) => {
      ctx.type = "html";
      ctx.body = renderErrorPage(out);
    },
  });
  // Expired rows go now and every 10 minutes (any process may delete them: deleting twice is harmless).
  const sweep = () => void deleteExpiredOidcState().catch((e: unknown) => console.error("oidc: could not delete expired sign-in state:", e instanceof Error ? e.message : e));
  sweep();
  setInterval(sweep, 10 * 60_000).unref();
  // Behind a TLS proxy (PUBLIC_URL set), trust its X-Forwarded-* headers so the provider's URLs use https.
  provider.proxy = Boolean(process.env.PUBLIC_URL);

  const router = express.Router();
  const noStore = (res: ExpressResponse) => res.set("Cache-Control", "no-store");
  const fail = (res: ExpressResponse, error: unknown) => {
    noStore(res);
    res
      .status(400)
      .type("html")
      .send(renderErrorPage({ error: "invalid_request", error_description: error instanceof Error ? error.message : "This sign-in attempt has expired. Start again from Reelsmith." }));
  };

  // Consent is implied: the only client is Reelsmith itself.
  async function grantConsent(req: ExpressRequest, res: ExpressResponse, details: InteractionDetails) {
    const accountId = details.session?.accountId;
    const clientId = details.params.client_id;
    if (!accountId || !clientId) throw new Error("This sign-in attempt has no signed-in account. Start again from Reelsmith.");
    const grant = (details.grantId && (await provider.Grant.find(details.grantId))) || new provider.Grant({ accountId, clientId });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  router.get("/interaction/:uid", async (req, res) => {
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === "consent") return await grantConsent(req, res, details);
      noStore(res);
      res.type("html").send(renderSignInPage(details.uid));
    } catch (e) {
      fail(res, e);
    }
  });

  router.post("/interaction/:uid", express.urlencoded({ extended: false, limit: "10kb" }), async (req, res) => {
    try {
      const details = await provider.interactionDetails(req, res);
      const parsed = LocalSignInSchema.safeParse(req.body);
      if (!parsed.success) {
        noStore(res);
        const values = req.body as { email?: string; name?: string };
        return res.status(400).type("html").send(renderSignInPage(details.uid, values, parsed.error.issues[0]!.message));
      }
      const accountId = await rememberAccount(parsed.data);
      await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    } catch (e) {
      fail(res, e);
    }
  });

  router.post("/interaction/:uid/abort", async (req, res) => {
    try {
      await provider.interactionDetails(req, res);
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "You cancelled the sign-in." },
        { mergeWithLastSubmission: false },
      );
    } catch (e) {
      fail(res, e);
    }
  });

  router.use(provider.callback());
  return router;
}
