// Where a webhook may be sent (issue 32, decisions 163 and 196): http(s) URLs at public addresses, unless the
// endpoint asks for private ones and its creator may have them (the owner's account, or the operator's
// ALLOW_PRIVATE_TARGETS). Checked when the endpoint is added; at delivery the connection itself is checked
// (app/lib/outbound-fetch.server.ts), so a name that resolves elsewhere by then is refused.
import { checkOutboundUrl, type ResolveHost } from "~/lib/outbound-fetch.server";

/** The URL, checked: throws an Error in words when it is not http(s) or (unless `allowPrivate`) not public. */
export async function checkWebhookTarget(url: string, allowPrivate: boolean, resolve?: ResolveHost): Promise<URL> {
  try {
    return await checkOutboundUrl(url, { allowPrivate, resolve });
  } catch (e) {
    if (e instanceof TypeError) throw new Error(`The webhook URL is refused. ${e.message}`);
    throw e;
  }
}
