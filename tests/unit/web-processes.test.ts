// WEB_PROCESSES (decision 133): how many web processes `npm start` runs, read the same way by the start script's
// cluster and by the environment schema; a bad value is refused with the variable's name.
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/core/env.server";
import { webProcessCount } from "../../scripts/lib/web-cluster.mjs";

describe("WEB_PROCESSES", () => {
  it("is 1 when unset or empty, else the number given", () => {
    expect(webProcessCount(undefined)).toBe(1);
    expect(webProcessCount(" ")).toBe(1);
    expect(webProcessCount("4")).toBe(4);
    expect(parseEnv({}).WEB_PROCESSES).toBe(1);
    expect(parseEnv({ WEB_PROCESSES: "3" }).WEB_PROCESSES).toBe(3);
  });

  it("refuses what is not a whole number from 1 to 64, naming the variable", () => {
    for (const bad of ["0", "65", "2.5", "two", "-1"]) {
      expect(() => webProcessCount(bad), bad).toThrow(/WEB_PROCESSES must be a whole number from 1 to 64/);
      expect(() => parseEnv({ WEB_PROCESSES: bad }), bad).toThrow(/WEB_PROCESSES/);
    }
  });
});
