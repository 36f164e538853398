// The outbound guard (decision 196): which addresses count as private, and the connection-time check with an
// injected resolver (real DNS is not ours to control here): a name that is public when checked and loopback when
// connecting is refused, the checked address is the one dialled, and a redirect to loopback is refused as its
// connection is made. "Public" names end in .test (never resolvable for real) and their sockets are redirected by
// the injected connector to a server on loopback, so no packet leaves this machine.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { buildConnector } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrivateTargetError, checkedAddress, createOutboundGuard, outboundRefusalIn, privateAddressKind, type ResolveHost } from "./outbound-fetch.server";

/** An address ipaddr.js calls public unicast; the injected connector sends its sockets to loopback instead. */
const PUBLIC = "93.184.215.14";

describe("privateAddressKind", () => {
  it.each([
    ["127.0.0.1", /loopback/],
    ["127.8.9.10", /loopback/],
    ["10.0.0.5", /private network/],
    ["172.16.4.4", /private network/],
    ["192.168.1.20", /private network/],
    ["169.254.169.254", /link-local.*cloud metadata/],
    ["100.64.0.1", /carrier-grade NAT/],
    ["0.0.0.0", /unspecified/],
    ["255.255.255.255", /broadcast/],
    ["224.0.0.1", /multicast/],
    ["::1", /loopback/],
    ["[::1]", /loopback/],
    ["::", /unspecified/],
    ["fd00::1", /unique local/],
    ["fe80::1%eth0", /link-local/],
    ["::ffff:127.0.0.1", /loopback/],
    ["::ffff:169.254.169.254", /link-local/],
    ["::7f00:1", /IPv4-compatible/],
    ["2002:7f00:1::", /./], // 6to4 carrying 127.0.0.1: not plain unicast, refused
    ["64:ff9b::a00:5", /./], // NAT64 carrying 10.0.0.5
  ])("%s is not public", (address, kind) => {
    expect(privateAddressKind(address)).toMatch(kind);
  });

  it.each(["93.184.215.14", "8.8.4.4", "2606:4700:4700::1111", "::ffff:93.184.215.14"])("%s is public", (address) => {
    expect(privateAddressKind(address)).toBeNull();
  });
});

describe("checkedAddress", () => {
  it("refuses a name when any of its addresses is private, in Reelsmith's words", async () => {
    const resolve: ResolveHost = async () => [PUBLIC, "10.0.0.5"];
    const refused = await checkedAddress("mixed.test", { allowPrivate: false, resolve }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PrivateTargetError);
    expect((refused as Error).message).toBe(
      "That address is on a private network: mixed.test is 10.0.0.5 (a private network range). Reelsmith calls only public addresses for creators; the owner's account, or the operator's ALLOW_PRIVATE_TARGETS=true, allows private ones.",
    );
  });

  it("lets private addresses through when they are allowed, and resolves localhost to loopback", async () => {
    expect(await checkedAddress("10.0.0.5", { allowPrivate: true })).toBe("10.0.0.5");
    await expect(checkedAddress("localhost", { allowPrivate: false })).rejects.toThrow(/localhost is (127\.0\.0\.1|::1) \(loopback: this machine\)/);
  });
});

describe("the guard, as connections are made", () => {
  let server: http.Server;
  let port: number;
  const hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url!);
      if (req.url === "/to-loopback") {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/inside` }).end();
        return;
      }
      res.end("answered");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => void server.close());

  /** Dials loopback for PUBLIC (standing in for a public host) and records every address it was asked to dial. */
  function recordingConnector(dialled: string[]): buildConnector.connector {
    const base = buildConnector({});
    return (options, callback) => {
      dialled.push(options.hostname);
      if (options.hostname !== PUBLIC) return callback(new Error(`the test connector dials only ${PUBLIC}`), null);
      base({ ...options, hostname: "127.0.0.1" }, callback);
    };
  }

  it("connects to the address it checked: a public name is reached, and nothing else is dialled", async () => {
    const dialled: string[] = [];
    const guard = createOutboundGuard({ allowPrivate: false, resolve: async () => [PUBLIC], connector: recordingConnector(dialled) });
    const answer = await guard.fetch(`http://receiver.test:${port}/hello`);
    expect(await answer.text()).toBe("answered");
    expect(dialled).toEqual([PUBLIC]);
    await guard.close();
  });

  it("refuses a name that resolves to a public address when checked and to loopback when connecting (DNS rebinding)", async () => {
    const dialled: string[] = [];
    let lookups = 0;
    const resolve: ResolveHost = async () => (lookups++ === 0 ? [PUBLIC] : ["127.0.0.1"]);
    const guard = createOutboundGuard({ allowPrivate: false, resolve, connector: recordingConnector(dialled) });
    hits.length = 0;
    const failed = await guard.fetch(`http://rebind.test:${port}/secret`).catch((e: unknown) => e);
    expect(lookups).toBe(2);
    expect(outboundRefusalIn(failed)?.message).toMatch(/^That address is on a private network: rebind\.test is 127\.0\.0\.1 \(loopback: this machine\)/);
    expect(dialled).toEqual([]);
    expect(hits).toEqual([]);
    expect(guard.refusals()).toBe(1);
    await guard.close();
  });

  it("refuses a redirect to loopback as its connection is made (Node's own fetch, following redirects, as the model server's calls do)", async () => {
    const dialled: string[] = [];
    const guard = createOutboundGuard({ allowPrivate: false, resolve: async () => [PUBLIC], connector: recordingConnector(dialled) });
    hits.length = 0;
    const failed = await fetch(`http://models.test:${port}/to-loopback`, { dispatcher: guard.dispatcher } as RequestInit).catch((e: unknown) => e);
    expect(outboundRefusalIn(failed)?.message).toMatch(/^That address is on a private network: 127\.0\.0\.1 \(loopback: this machine\)/);
    expect(hits).toEqual(["/to-loopback"]);
    expect(dialled).toEqual([PUBLIC]);
    await guard.close();
  });

  it("follows no redirect in its own fetch: the 3xx is the answer", async () => {
    const guard = createOutboundGuard({ allowPrivate: false, resolve: async () => [PUBLIC], connector: recordingConnector([]) });
    hits.length = 0;
    const answer = await guard.fetch(`http://hooks.test:${port}/to-loopback`, { method: "POST", body: "{}" });
    expect(answer.status).toBe(302);
    expect(hits).toEqual(["/to-loopback"]);
    await guard.close();
  });

  it("refuses loopback literals and localhost unless private targets are allowed, then reaches them", async () => {
    for (const url of [`http://127.0.0.1:${port}/`, `http://[::1]:${port}/`, `http://localhost:${port}/`]) {
      const guard = createOutboundGuard({ allowPrivate: false });
      await expect(fetch(url, { dispatcher: guard.dispatcher } as RequestInit)).rejects.toSatisfy((e) => outboundRefusalIn(e) instanceof PrivateTargetError);
      await guard.close();
    }
    const allowed = createOutboundGuard({ allowPrivate: true });
    expect(await (await fetch(`http://localhost:${port}/`, { dispatcher: allowed.dispatcher } as RequestInit)).text()).toBe("answered");
    await allowed.close();
  });
});
