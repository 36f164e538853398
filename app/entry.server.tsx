// Remix's Node entry (the default one), plus the per-request CSP nonce (decision 052): the gates in
// app/server/host/web-app.server.ts make a nonce for each request, put it in the Content-Security-Policy header and in
// the load context; here it is handed to React (for the scripts it streams) and to the page (<Scripts nonce>).
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/components/layout/csp-nonce";
import { modulePreloadsAtLowPriority } from "~/server/module-preload-priority.server";
import { cspNonceOf } from "~/server/host/web-app.server";

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = cspNonceOf(loadContext);
  // bots (and SPA mode) get the whole page at once; browsers get the shell first and the rest streamed
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html");
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      const html = modulePreloadsAtLowPriority();
      html.pipe(body);
      pipe(html);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        ...(waitForAll ? { onAllReady: ready } : { onShellReady: ready }),
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // errors in the shell reject above and are logged by Remix; these came while streaming
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
