// Who may reach this server. The built-in sign-in provider (no OIDC_ISSUER) lets anyone sign in as any
// e-mail, so while it is on the app is a local tool: it listens on loopback only, refuses to start with a
// PUBLIC_URL on another host, and /oidc answers only loopback callers that came straight (not through a
// proxy). DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN="yes-anyone-can-sign-in-as-anyone" lifts all of this.
import type { Env } from "./env.server";

type ExposureEnv = Pick<Env, "OIDC_ISSUER" | "PUBLIC_URL" | "HOST" | "DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN">;

export const LOOPBACK_HOST = "127.0.0.1";

export function builtinSignInOn(env: Pick<Env, "OIDC_ISSUER">): boolean {
  return !env.OIDC_ISSUER;
}

export function builtinSignInExposed(env: ExposureEnv): boolean {
  return builtinSignInOn(env) && Boolean(env.DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN);
}

/** localhost, 127.0.0.0/8 and ::1, as a URL's hostname or a HOST value. */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A socket's remote address (IPv4, IPv6 or IPv4-mapped IPv6) that is this machine. */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  const plain = address.replace(/^::ffff:/i, "");
  return plain === "::1" || /^127(\.\d{1,3}){3}$/.test(plain);
}

/** Why this configuration must not start, or null. */
export function exposureProblem(env: ExposureEnv): string | null {
  if (!builtinSignInOn(env) || builtinSignInExposed(env)) return null;
  const publicHost = new URL(env.PUBLIC_URL).hostname;
  if (!isLoopbackHostname(publicHost)) {
    return (
      `PUBLIC_URL is ${env.PUBLIC_URL}, but the built-in sign-in (no OIDC_ISSUER) lets anyone sign in as anyone, ` +
      `so Reelsmith only runs on this machine with it. Set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET to use a real ` +
      `sign-in provider, or, to accept that every visitor can take over any account, set DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN=yes-anyone-can-sign-in-as-anyone.`
    );
  }
  if (env.HOST && !isLoopbackHostname(env.HOST)) {
    return (
      `HOST is ${env.HOST}, but the built-in sign-in (no OIDC_ISSUER) lets anyone sign in as anyone, so Reelsmith listens ` +
      `on loopback only with it. Set OIDC_ISSUER (and its client), or DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN=yes-anyone-can-sign-in-as-anyone.`
    );
  }
  return null;
}

/** The interface to listen on: loopback while the built-in sign-in is on and not exposed; else HOST or all. */
export function listenHost(env: ExposureEnv): string {
  if (builtinSignInOn(env) && !builtinSignInExposed(env)) return env.HOST ?? LOOPBACK_HOST;
  return env.HOST ?? "0.0.0.0";
}

export const BUILTIN_SIGNIN_REMOTE_MESSAGE =
  "The built-in sign-in only works on the computer running Reelsmith. To sign in from elsewhere, the operator sets OIDC_ISSUER to a real sign-in provider.";

/**
 * Whether a caller may use the built-in provider: it connected from loopback and no proxy forwarded it
 * (a proxy on this machine would make every visitor look local). Always true once exposure is accepted.
 */
export function mayUseBuiltinSignIn(
  env: ExposureEnv,
  caller: { remoteAddress: string | undefined | null; headers: Record<string, string | string[] | undefined> },
): boolean {
  if (builtinSignInExposed(env)) return true;
  const forwarded = ["forwarded", "x-forwarded-for", "x-real-ip", "x-forwarded-host"].some((name) => caller.headers[name] !== undefined);
  return !forwarded && isLoopbackAddress(caller.remoteAddress);
}

/** The start-up banner's lines about sign-in and exposure. */
export function exposureBanner(env: ExposureEnv & Pick<Env, "OWNER_EMAIL" | "BUILTIN_SIGNIN_ALLOWS_OWNER" | "ALLOWED_EMAILS" | "ALLOWED_DOMAINS">): string[] {
  const lines: string[] = [];
  if (!builtinSignInOn(env)) {
    lines.push(`sign-in: ${env.OIDC_ISSUER} (accounts keyed by issuer and subject; verified e-mails only)`);
    lines.push(`listening on ${listenHost(env)}`);
  } else if (builtinSignInExposed(env)) {
    lines.push("!!! DANGER: the built-in sign-in is EXPOSED (DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN is set).");
    lines.push("!!! Anyone who reaches this server can sign in as ANY e-mail and take over that account.");
    lines.push(`!!! listening on ${listenHost(env)}; set OIDC_ISSUER to use a real sign-in provider.`);
  } else {
    lines.push("sign-in: built-in, for local use only: anyone at this computer can sign in as any e-mail.");
    lines.push(`listening on ${listenHost(env)} only (loopback); set OIDC_ISSUER to reach Reelsmith from other machines.`);
    if (env.OWNER_EMAIL && !env.BUILTIN_SIGNIN_ALLOWS_OWNER) {
      lines.push(`the owner account (${env.OWNER_EMAIL}) cannot be claimed through the built-in sign-in (BUILTIN_SIGNIN_ALLOWS_OWNER=true allows it).`);
    }
  }
  if (env.ALLOWED_EMAILS?.length || env.ALLOWED_DOMAINS?.length) {
    lines.push(`sign-up closed: only ${[...(env.ALLOWED_EMAILS ?? []), ...(env.ALLOWED_DOMAINS ?? []).map((d) => `*@${d}`)].join(", ")}`);
  }
  return lines;
}
