// A request's body read within a byte limit, as a stream whatever Content-Length says: the bytes, or a
// BodyLimitError as soon as the limit is passed. Below the web's /api helpers (app/server/api.server.ts answers the
// error with a 413) and the providers' webhook readers (which answer it their own way): neither reaches up to
// the other (decision 185).

/** The largest JSON body any /api route reads (about 1 MB); uploads have their own, spec-given limits. */
export const MAX_JSON_BYTES = 1024 * 1024;

export const bodyTooLargeMessage = (maxBytes: number) =>
  `The request body is too large: at most ${maxBytes >= 1024 * 1024 ? `${Math.round((maxBytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.ceil(maxBytes / 1024)} KB`} is accepted.`;

export class BodyLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(bodyTooLargeMessage(maxBytes));
    this.name = "BodyLimitError";
  }
}

export function isBodyLimitError(error: unknown): error is BodyLimitError {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BodyLimitError) return true;
  }
  return false;
}

/**
 * The request's body as bytes, read as a stream and stopped (BodyLimitError) as soon as it passes `maxBytes`,
 * whatever Content-Length says or whether there is one (a chunked body has none). Memory stays within the cap.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  // Refused unread, and never cancelled: cancelling destroys the socket before the answer is sent. The web server
  // reads and drops the rest once it has answered (app/server/unread-body.server.ts, decision 198).
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyLimitError(maxBytes);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Stop reading, but do not cancel: cancelling destroys the socket, and the answer would never arrive. The
      // server reads and drops the rest of the body once the answer is sent (decision 198).
      reader.releaseLock();
      throw new BodyLimitError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/**
 * A copy of the request whose body stream fails once more than `maxBytes` have been read: for parsers that
 * read the body themselves (multipart). Use isBodyLimitError to recognise the failure.
 */
export function withBodyLimit(request: Request, maxBytes: number): Request {
  if (!request.body) return request;
  let total = 0;
  const limited = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > maxBytes) controller.error(new BodyLimitError(maxBytes));
        else controller.enqueue(chunk);
      },
    }),
    // leave the socket's stream alone (cancelling it would destroy the socket before the 413 is sent)
    { preventCancel: true },
  );
  return new Request(request.url, { method: request.method, headers: request.headers, body: limited, signal: request.signal, duplex: "half" } as RequestInit);
}

/** The file part of a streamed multipart upload, as it arrives: its bytes are read once, in order. */
export type StreamedFilePart = { fileName: string | null; contentType: string | null; data: AsyncIterable<Uint8Array> };
