// Who is signed in. Sign-in is the OIDC authorization code flow with PKCE and state (remix-auth +
// remix-auth-oauth2), against OIDC_ISSUER (Google works as is) or, without it, the embedded provider under
// /oidc. Guards: getUserId / requireUserId / requireUser; signed out, /api paths get 401 JSON, pages go to "/".
import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { OAuth2RequestError, OAuth2Strategy } from "remix-auth-oauth2";
import { z } from "zod";
import type { User } from "~/generated/prisma/client";
import { signInErrorMessage } from "~/lib/sign-in-errors";
import { NOT_SIGNED_IN_MESSAGE, appOrigin, jsonError } from "./api.server";
import { scrubSecrets } from "./scrub.server";
import { getEnv } from "~/core/env.server";
import { EMBEDDED_CLIENT_ID, embeddedClientSecret, embeddedIssuer, embeddedProviderInternalUrl } from "./host/oidc-provider.server";
import { createSession, destroySession, getSessionUserId } from "./session.server";
import { findUserById, SignInRefused, upsertUserFromProfile } from "./users.server";

export const CALLBACK_PATH = "/api/auth/callback";
const STATE_COOKIE = "reelsmith_oauth";

export async function getUserId(request: Request): Promise<string | null> {
  return getSessionUserId(request.headers.get("Cookie"));
}

export async function getUser(request: Request): Promise<User | null> {
  const userId = await getUserId(request);
  return userId ? findUserById(userId) : null;
}

/** What a signed-out request gets: 401 JSON on /api paths, else the landing page. */
export function signedOutResponse(request: Request): Response {
  const { pathname } = new URL(request.url);
  return pathname.startsWith("/api/") ? jsonError(401, NOT_SIGNED_IN_MESSAGE) : signedOutRedirect(pathname);
}

/** The landing page, told which page was asked for, so it can say why the visitor is there (`?from=/render`). */
export function signedOutRedirect(pathname: string): Response {
  return isSignedInPage(pathname) ? redirect(`/?from=${encodeURIComponent(pathname)}`) : redirect("/");
}

/** Which sign-in provider this Reelsmith uses: the built-in one, Google, or another OIDC provider. */
export function signInProviderKind(): "builtin" | "google" | "oidc" {
  const issuer = getEnv().OIDC_ISSUER;
  if (!issuer) return "builtin";
  return /(^|\.)accounts\.google\.com/.test(new URL(issuer).hostname) ? "google" : "oidc";
}

export async function requireUserId(request: Request): Promise<string> {
  const userId = await getUserId(request);
  if (!userId) throw signedOutResponse(request);
  return userId;
}

export async function requireUser(request: Request): Promise<User> {
  const user = await getUser(request);
  if (!user) throw signedOutResponse(request);
  return user;
}

/** Pages only a signed-in user may see (spec route table); signed out, they lead to the landing page. */
export const SIGNED_IN_PAGES = ["/dashboard", "/create", "/script", "/storyboard", "/music", "/render", "/upload", "/thumbnail", "/subscription", "/settings", "/projects"];

export function isSignedInPage(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  return SIGNED_IN_PAGES.some((page) => path === page || path.startsWith(`${page}/`));
}

export function isSecureRequest(request: Request): boolean {
  return appOrigin(request).startsWith("https:");
}

// ---- the identity provider ----

// Google's ID tokens may name their issuer without the scheme ("accounts.google.com").
const normalizeIssuer = (issuer: string) => issuer.replace(/\/$/, "").replace(/^https:\/\//, "");

const DiscoverySchema = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  userinfo_endpoint: z.url(),
  revocation_endpoint: z.url().optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
});
type Discovery = z.infer<typeof DiscoverySchema>;

type ProviderConfig = { embedded: boolean; issuer: string; discoveryBase: string; clientId: string; clientSecret: string };

function providerConfig(): ProviderConfig {
  const env = getEnv();
  if (!env.OIDC_ISSUER) {
    // The server reads its own provider over loopback, so a PUBLIC_URL behind a proxy needs no hairpin.
    return { embedded: true, issuer: embeddedIssuer(), discoveryBase: embeddedProviderInternalUrl(), clientId: EMBEDDED_CLIENT_ID, clientSecret: embeddedClientSecret() };
  }
  if (!env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) {
    throw new Error("OIDC_ISSUER is set, so OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set too (from your provider's OAuth client).");
  }
  const issuer = env.OIDC_ISSUER.replace(/\/$/, "");
  return { embedded: false, issuer, discoveryBase: issuer, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET };
}

let discovery: Promise<Discovery> | undefined;
function discover(config: ProviderConfig): Promise<Discovery> {
  discovery ??= (async () => {
    const url = `${config.discoveryBase}/.well-known/openid-configuration`;
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`The sign-in provider's discovery document at ${url} answered HTTP ${response.status}.`);
    const parsed = DiscoverySchema.safeParse(await response.json());
    if (!parsed.success) throw new Error(`The sign-in provider's discovery document at ${url} lacks ${parsed.error.issues[0]?.path.join(".")}.`);
    if (normalizeIssuer(parsed.data.issuer) !== normalizeIssuer(config.issuer)) {
      throw new Error(`The sign-in provider says its issuer is ${parsed.data.issuer}, not ${config.issuer}: check OIDC_ISSUER.`);
    }
    return parsed.data;
  })().catch((e) => {
    discovery = undefined; // retry on the next sign-in
    throw e;
  });
  return discovery;
}

class SignInFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const UserInfoSchema = z.object({
  sub: z.string().min(1),
  email: z.email({ message: "The sign-in provider did not share an e-mail address." }),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
});

const IdTokenClaimsSchema = z.object({
  iss: z.string(),
  sub: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
  exp: z.number(),
});

function decodeJwtPayload(jwt: string): unknown {
  const payload = jwt.split(".")[1];
  if (!payload) throw new SignInFailure("invalid_token", "The sign-in provider returned a malformed ID token.");
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
}

// The ID token comes straight from the token endpoint over the back channel, so its issuer, audience and
// expiry are checked (OIDC Core 3.1.3.7 allows TLS in place of the signature); the profile comes from userinfo.
async function verifySignIn(config: ProviderConfig, metadata: Discovery, tokens: { data: object; accessToken(): string }): Promise<User> {
  const raw = tokens.data as { id_token?: unknown };
  const response = await fetch(metadata.userinfo_endpoint, { headers: { Authorization: `Bearer ${tokens.accessToken()}`, Accept: "application/json" } });
  if (!response.ok) throw new SignInFailure("userinfo_failed", `The sign-in provider did not return your profile (HTTP ${response.status}).`);
  const info = UserInfoSchema.safeParse(await response.json());
  if (!info.success) throw new SignInFailure("invalid_profile", info.error.issues[0]!.message);
  if (typeof raw.id_token === "string") {
    const claims = IdTokenClaimsSchema.safeParse(decodeJwtPayload(raw.id_token));
    const audiences = claims.success ? [claims.data.aud].flat() : [];
    if (
      !claims.success ||
      normalizeIssuer(claims.data.iss) !== normalizeIssuer(config.issuer) ||
      !audiences.includes(config.clientId) ||
      claims.data.exp * 1000 < Date.now() - 60_000 ||
      claims.data.sub !== info.data.sub
    ) {
      throw new SignInFailure("invalid_token", "The sign-in provider's ID token was not issued for Reelsmith. Please sign in again.");
    }
  }
  // Only a provider's explicit "verified" counts: an absent claim is not a verified address.
  const emailVerified = info.data.email_verified === true || info.data.email_verified === "true";
  try {
    return await upsertUserFromProfile({
      issuer: normalizeIssuer(config.issuer),
      subject: info.data.sub,
      email: info.data.email,
      emailVerified,
      name: info.data.name,
      avatarUrl: info.data.picture,
      builtin: config.embedded,
    });
  } catch (e) {
    if (e instanceof SignInRefused) throw new SignInFailure(e.code, e.message);
    throw e;
  }
}

class ReelsmithOidcStrategy extends OAuth2Strategy<User> {
  constructor(
    options: OAuth2Strategy.ConstructorOptions,
    verify: (params: OAuth2Strategy.VerifyOptions) => Promise<User>,
    private readonly alwaysAskForLogin: boolean,
  ) {
    super(options, verify);
  }
  // The embedded provider remembers the last person in its own cookie; asking again lets a shared
  // browser sign in as someone else after signing out.
  protected override authorizationParams(params: URLSearchParams): URLSearchParams {
    const next = new URLSearchParams(params);
    if (this.alwaysAskForLogin) next.set("prompt", "login");
    return next;
  }
}

async function authenticatorFor(request: Request): Promise<Authenticator<User>> {
  const config = providerConfig();
  const metadata = await discover(config);
  const origin = appOrigin(request);
  // The browser must reach the embedded provider on the host it is using (its cookies are per host).
  const authorizationEndpoint = config.embedded
    ? new URL(new URL(metadata.authorization_endpoint).pathname, origin)
    : new URL(metadata.authorization_endpoint);
  const strategy = new ReelsmithOidcStrategy(
    {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      authorizationEndpoint,
      tokenEndpoint: metadata.token_endpoint,
      tokenRevocationEndpoint: metadata.revocation_endpoint,
      redirectURI: `${origin}${CALLBACK_PATH}`,
      scopes: ["openid", "email", "profile"],
      cookie: { name: STATE_COOKIE, httpOnly: true, sameSite: "Lax", path: "/", ...(origin.startsWith("https:") ? { secure: true as const } : {}) },
    },
    ({ tokens }) => verifySignIn(config, metadata, tokens),
    config.embedded,
  );
  return new Authenticator<User>().use(strategy, "oidc");
}

/** GET /api/login: redirects to the identity provider (the strategy throws that redirect). */
export async function startSignIn(request: Request): Promise<Response> {
  if (await getUserId(request)) return redirect("/");
  try {
    const authenticator = await authenticatorFor(request);
    await authenticator.authenticate("oidc", request);
  } catch (e) {
    if (e instanceof Response) return e;
    console.error("sign-in could not start:", scrubSecrets(e instanceof Error ? e.message : String(e)));
    return loginFailedRedirect("provider_unavailable", "");
  }
  return loginFailedRedirect("server_error", "The sign-in provider did not redirect.");
}

/** The identity provider's redirect back: signs the user in (a new session), or sends them to /login-failed. */
export async function finishSignIn(request: Request): Promise<Response> {
  const clearState = expiredStateCookies(request);
  let user: User;
  try {
    const authenticator = await authenticatorFor(request);
    user = await authenticator.authenticate("oidc", request);
  } catch (e) {
    const failure =
      e instanceof OAuth2RequestError
        ? { code: e.code, description: e.description ?? "" }
        : e instanceof SignInFailure
          ? { code: e.code, description: e.message }
          : e instanceof RangeError || e instanceof ReferenceError
            ? { code: "invalid_state", description: "The sign-in attempt expired or was started in another browser. Please sign in again." }
            : { code: "server_error", description: e instanceof Error ? e.message : String(e) };
    if (!(e instanceof OAuth2RequestError) && !(e instanceof SignInFailure)) console.error("sign-in failed:", e);
    return loginFailedRedirect(failure.code, failure.description, clearState);
  }
  const headers = new Headers({ Location: "/" });
  headers.append("Set-Cookie", await createSession(user.id, { secure: isSecureRequest(request) }));
  for (const c of clearState) headers.append("Set-Cookie", c);
  return new Response(null, { status: 302, headers });
}

/** /api/logout: ends this browser's session and goes home. */
export async function signOut(request: Request): Promise<Response> {
  const cleared = await destroySession(request.headers.get("Cookie"), { secure: isSecureRequest(request) });
  return redirect("/", { headers: { "Set-Cookie": cleared } });
}

// The page shows only known texts for known codes; the description carries the same known text (or none).
function loginFailedRedirect(error: string, _description: string, setCookies: string[] = []): Response {
  const code = signInErrorMessage(error) ? error : "server_error";
  const headers = new Headers({ Location: `/login-failed?${new URLSearchParams({ error: code, description: signInErrorMessage(code)! })}` });
  for (const c of setCookies) headers.append("Set-Cookie", c);
  return new Response(null, { status: 302, headers });
}

// Each sign-in attempt leaves a short-lived state cookie named "<STATE_COOKIE>:<uuid>"; clear them once used.
function expiredStateCookies(request: Request): string[] {
  const names = (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((part) => part.split("=")[0]!.trim())
    .filter((name) => name.startsWith(`${STATE_COOKIE}:`));
  return names.map((name) => `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
}
