// Decision records say whether they still hold (issue 46): each has a status line right under its title (accepted,
// accepted and amended by a later record, superseded by one, or stale), and the index in docs/decisions/README.md
// lists every record with the same status, so a reader who trusts the table is not misled. (A later round of an
// earlier-numbered piece of work may amend a record, so a status may name a smaller number.)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DIR = fileURLToPath(new URL("../../docs/decisions", import.meta.url));
const records = fs.readdirSync(DIR).filter((f) => /^\d{3}-.+\.md$/.test(f)).sort();
const numbers = new Set(records.map((f) => f.slice(0, 3)));
const statusOf = (file: string) => fs.readFileSync(path.join(DIR, file), "utf8").split("\n")[1] ?? "";
const index = new Map(
  fs
    .readFileSync(path.join(DIR, "README.md"), "utf8")
    .split("\n")
    .flatMap((line) => {
      const row = /^\| \[(\d{3})\]\(([^)]+)\) \| .+ \| (.+) \|$/.exec(line);
      return row ? [[row[1]!, { file: row[2]!, status: row[3]! }] as const] : [];
    }),
);

describe("decision records", () => {
  it("each has a status line under its title: accepted (perhaps amended), superseded by a later record, or stale", () => {
    expect(records.length).toBeGreaterThan(90);
    const without = records.filter((f) => !/^Status: (accepted\b|superseded by \d{3}\b|stale\b)/.test(statusOf(f)));
    expect(without).toEqual([]);
  });

  it("a status names only records that exist", () => {
    const wrong = records.flatMap((f) =>
      [...statusOf(f).matchAll(/(?:amended|superseded) by ([\d, and]+)/g)].flatMap((m) =>
        (m[1]!.match(/\d{3}/g) ?? []).filter((n) => !numbers.has(n)).map((n) => `${f} names ${n}`),
      ),
    );
    expect(wrong).toEqual([]);
  });

  it("the index lists every record, with the status the record gives itself", () => {
    const differ = records.flatMap((f) => {
      const row = index.get(f.slice(0, 3));
      if (!row) return [`${f}: not in the index`];
      if (row.file !== f) return [`${f}: the index links ${row.file}`];
      const status = statusOf(f).replace(/^Status: /, "");
      return row.status === status ? [] : [`${f}: the index says "${row.status}", the record "${status}"`];
    });
    expect(differ).toEqual([]);
  });
});
