// Where a webhook may be sent (issue 32, decision 163): http(s) URLs whose host resolves only to public addresses,
// unless the owner allowed private and loopback ones (a receiver on their own network). Checked when the endpoint
// is added and again before every attempt (a name may resolve elsewhere later).
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** null when the address is public; else what kind it is, in words. */
export function privateAddressKind(address: string): string | null {
  if (!ipaddr.isValid(address)) return "not an IP address";
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === "unicast" ? null : range;
}

/** The URL, checked: throws an Error in words when it is not http(s) or (unless `allowPrivate`) not public. */
export async function checkWebhookTarget(url: string, allowPrivate: boolean): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("The webhook URL is not a URL.");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("The webhook URL must start with https:// (or http://).");
  if (parsed.username || parsed.password) throw new Error("The webhook URL may not carry a user name or password.");
  if (allowPrivate) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new Error(`The webhook host ${host} could not be resolved.`);
  }
  for (const address of addresses) {
    const kind = privateAddressKind(address);
    if (kind) throw new Error(`The webhook URL points at a ${kind} address (${address}). Tick "allow private addresses" if the receiver is on your own network.`);
  }
  return parsed;
}
