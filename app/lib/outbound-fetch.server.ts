// Where a creator's URLs may take the server (issue 47, decision 196): webhook receivers and OpenAI-compatible model
// servers are called only at public addresses unless private ones are allowed (the operator's ALLOW_PRIVATE_TARGETS
// or the owner's account; the callers decide, this module enforces). The address is checked when each connection is
// made: an undici Agent whose connector resolves the name, refuses it when any address is private, and connects to
// the address it checked (pinned for that connection), so a name that answers a public address to a first look-up
// and a private one to the next (DNS rebinding) cannot slip through, and every redirect's new connection is checked
// the same way. Refusals are PrivateTargetErrors in Reelsmith's own words.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher, type RequestInit as UndiciRequestInit, type Response as UndiciResponse } from "undici";

/** The addresses a host name resolves to (every one of them: a name is refused when any is private). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const resolveWithSystem: ResolveHost = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** How ipaddr.js names a range, as a person would read it. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: "unspecified: 0.0.0.0 or ::",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local: where cloud metadata answers",
  loopback: "loopback: this machine",
  carrierGradeNat: "carrier-grade NAT",
  private: "a private network range",
  reserved: "reserved",
  uniqueLocal: "unique local: a private IPv6 network",
  ipv4Compatible: "IPv4-compatible",
};

/** null when the address is public unicast; else what kind of address it is, in words. */
export function privateAddressKind(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return "not an IP address";
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    // ::ffff:a.b.c.d is a.b.c.d: judged as the IPv4 address it carries
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  const range = parsed.range();
  if (range !== "unicast") return RANGE_WORDS[range] ?? range;
  // ::a.b.c.d (the deprecated IPv4-compatible form) is none of ipaddr.js's ranges: refused outright
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return RANGE_WORDS.ipv4Compatible!;
  return null;
}

/** A creator's URL pointed at an address that is not public, and private targets are not allowed. */
export class PrivateTargetError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: string,
  ) {
    super(
      `That address is on a private network: ${host === address ? address : `${host} is ${address}`} (${kind}). ` +
        "Reelsmith calls only public addresses for creators; the owner's account, or the operator's ALLOW_PRIVATE_TARGETS=true, allows private ones.",
    );
    this.name = "PrivateTargetError";
  }
}

/** A host name that does not resolve. */
export class UnresolvedTargetError extends Error {
  constructor(readonly host: string) {
    super(`The name ${host} could not be found (DNS). Check the address.`);
    this.name = "UnresolvedTargetError";
  }
}

export type OutboundPolicy = {
  /** Private, loopback and link-local addresses are allowed (the operator's setting, or the owner's account). */
  allowPrivate: boolean;
  /** How names are resolved; the system resolver unless given (tests inject one). */
  resolve?: ResolveHost;
  /** What opens the socket to the checked address; undici's own connector unless given (tests inject one). */
  connector?: buildConnector.connector;
};

/**
 * The address to connect to for `host`: an IP literal as it is, a name resolved now. Unless private targets are
 * allowed, every address must be public: one private answer refuses the name (it could be chosen next time).
 */
export async function checkedAddress(host: string, policy: Pick<OutboundPolicy, "allowPrivate" | "resolve">): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = await (policy.resolve ?? resolveWithSystem)(bare);
    } catch {
      throw new UnresolvedTargetError(bare);
    }
    if (addresses.length === 0) throw new UnresolvedTargetError(bare);
  }
  if (!policy.allowPrivate) {
    for (const address of addresses) {
      const kind = privateAddressKind(address);
      if (kind) throw new PrivateTargetError(bare, address, kind);
    }
  }
  return addresses[0]!;
}

/** The URL, parsed: http(s) and no credentials, or a TypeError saying what is wrong. Looks nothing up. */
export function parseOutboundUrl(url: string | URL): URL {
  if (!URL.canParse(url)) throw new TypeError("The address is not a web address.");
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new TypeError("The address must start with https:// (or http://).");
  if (parsed.username || parsed.password) throw new TypeError("The address may not carry a user name or password.");
  return parsed;
}

/** The URL, parsed and checked: http(s), no credentials, a host that passes `checkedAddress`. */
export async function checkOutboundUrl(url: string | URL, policy: Pick<OutboundPolicy, "allowPrivate" | "resolve">): Promise<URL> {
  const parsed = parseOutboundUrl(url);
  await checkedAddress(parsed.hostname, policy);
  return parsed;
}

/** The refusal or look-up failure somewhere in an error's cause chain (fetch wraps connector errors in "fetch failed"). */
export function outboundRefusalIn(error: unknown): PrivateTargetError | UnresolvedTargetError | undefined {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof PrivateTargetError || e instanceof UnresolvedTargetError) return e;
  }
  return undefined;
}

export type OutboundGuard = {
  /** Pass as `dispatcher` to fetch (undici's or Node's own): every connection it opens is checked and pinned. */
  dispatcher: Dispatcher;
  policy: OutboundPolicy;
  /** How many connections it refused so far (a caller whose error lost its cause compares before and after). */
  refusals: () => number;
  /** The latest refusal, to say why in our words when a client library reported only "fetch failed". */
  lastRefusal: () => PrivateTargetError | UnresolvedTargetError | undefined;
  /** fetch through the guard: the URL checked first (a clear refusal before any connection), no redirects followed. */
  fetch: (url: string | URL, init?: Omit<UndiciRequestInit, "dispatcher" | "redirect">) => Promise<UndiciResponse>;
  close: () => Promise<void>;
};

/** A guard for one caller (a delivery, a model server's provider): its own connection pool and refusal record. */
export function createOutboundGuard(policy: OutboundPolicy): OutboundGuard {
  const base = policy.connector ?? buildConnector({});
  let refused = 0;
  let last: PrivateTargetError | UnresolvedTargetError | undefined;
  const connect: buildConnector.connector = (options, callback) => {
    checkedAddress(options.hostname, policy).then(
      // the checked address is the one connected to; `host` keeps the name for TLS (SNI, certificate) and Host
      (address) => base({ ...options, hostname: address }, callback),
      (error: PrivateTargetError | UnresolvedTargetError) => {
        refused++;
        last = error;
        callback(error, null);
      },
    );
  };
  const dispatcher = new Agent({ connect });
  return {
    dispatcher,
    policy,
    refusals: () => refused,
    lastRefusal: () => last,
    async fetch(url, init = {}) {
      await checkOutboundUrl(url, policy);
      return undiciFetch(url, { ...init, redirect: "manual", dispatcher });
    },
    close: () => dispatcher.close(),
  };
}
