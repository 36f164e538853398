// The CSP nonces: 128 random bits each, base64, never the same twice (they come from the CSPRNG in batches).
import { describe, expect, it } from "vitest";
import { newCspNonce } from "./host/web-app.server";

describe("newCspNonce", () => {
  it("gives 16 random bytes in base64, a new one every call, across batch refills", () => {
    const nonces = Array.from({ length: 1000 }, newCspNonce);
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
  });
});
