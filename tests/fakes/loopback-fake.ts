// What the YouTube, TikTok and Instagram fakes share (tests/fakes/youtube.ts, tiktok.ts, instagram.ts): a loopback HTTP server
// handing each request to the fake's own `handle` (raw request and response, so a fake can cut a connection before
// its answer, as a lost answer does), its open sockets tracked so `stop` ends at once, JSON answers and the body read.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export abstract class LoopbackFake {
  url = "";
  private server?: http.Server;
  private readonly sockets = new Set<Socket>();

  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown>;
  /** The answer to a request whose handler threw: the service's own shape of a 500. */
  protected abstract internalError(res: http.ServerResponse, error: unknown): void;

  async start(port = 0): Promise<string> {
    this.server = http.createServer((req, res) => void this.handle(req, res).catch((e) => this.internalError(res, e)));
    this.server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop() {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  protected json(res: http.ServerResponse, status: number, body: unknown) {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify(body));
  }

  protected async body(req: http.IncomingMessage): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }
}
