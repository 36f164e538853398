// What the web server does with the part of a request body nobody read (decision 198). A route that refuses a body
// (413 too large, 400 malformed, 404 another creator's project, 401 signed out) answers before reading the rest of
// it; closing the connection then, while the client is still writing, makes the client fail with EPIPE or
// ECONNRESET before it reads the answer. So once the answer is sent, the rest of the body is read and dropped, up to
// UNREAD_BODY_DRAIN_BYTES and UNREAD_BODY_DRAIN_MS, and only a body past either bound has its connection closed.
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";

/** The most of an unread body the server reads and drops after answering; past it the connection is closed. */
export const UNREAD_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
/** How long the server keeps reading an unread body after answering; a client still sending then is cut off. */
export const UNREAD_BODY_DRAIN_MS = 60_000;

export type DrainLimits = { bytes: number; ms: number };

/**
 * Reads and drops what is left of `req`'s body, closing the connection once more than `limits.bytes` arrive or
 * `limits.ms` pass. Call it after the answer is sent: whoever was reading the body (Remix's request stream) is done
 * with it, so its listeners are removed, as Node's own server does with a body nobody touched. Nothing happens for a
 * body already read to its end.
 */
export function drainUnreadBody(req: IncomingMessage, limits: DrainLimits = { bytes: UNREAD_BODY_DRAIN_BYTES, ms: UNREAD_BODY_DRAIN_MS }): void {
  if (req.complete || req.destroyed || req.readableEnded) return;
  let drained = 0;
  const cutOff = () => {
    stop();
    req.socket.destroy();
  };
  const timer = setTimeout(cutOff, limits.ms);
  timer.unref();
  const count = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > limits.bytes) cutOff();
  };
  const stop = () => {
    clearTimeout(timer);
    req.off("data", count);
    req.off("end", stop);
    req.off("close", stop);
  };
  req.removeAllListeners("data");
  req.on("data", count);
  req.once("end", stop);
  req.once("close", stop);
  req.resume();
}

/** Express middleware: every request's unread body is drained (drainUnreadBody) once its answer has been sent. */
export function drainUnreadBodies(limits?: DrainLimits): RequestHandler {
  return (req, res, next) => {
    res.once("finish", () => drainUnreadBody(req, limits));
    next();
  };
}
