// An express app on a loopback port of its own, and raw HTTP requests to it: node's http client, so a test
// controls every header (Content-Length, Origin, Cookie) exactly as a browser or a forger would send it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type express from "express";

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string };

export async function listen(app: express.Express) {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const port = (server.address() as AddressInfo).port;
  const request = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<RawAnswer>((resolve, reject) => {
      const sized = body === undefined ? headers : { ...headers, "Content-Length": String(Buffer.byteLength(body)) };
      const req = http.request({ host: "127.0.0.1", port, path, method, headers: sized }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on("error", reject);
      req.end(body);
    });
  return { request, close: () => server.close() };
}
