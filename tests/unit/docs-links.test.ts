// The README and the docs stay true to the tree they describe (issue 55): every relative link of README.md and
// docs/*.md reaches a file (and, into a Markdown page, a heading that exists), every test file that
// docs/readme-claims.md names as a claim's check exists, and docs/configuration.md names every setting the
// environment schema checks at start.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SETTING_NAMES } from "../../app/core/env.server";
import { PlatformEnvSchema } from "../../app/lib/platform-env-schema";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const pages = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

/** A page's text without fenced code blocks and inline code, where brackets are code, not links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The targets of a page's Markdown links and images, `[text](target)` and `![alt](target "title")`. */
function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2... */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutFences = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const m of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const title = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const base = title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

describe("the README's and the docs' links", () => {
  it("finds the links of a page and GitHub's anchors of its headings", () => {
    expect(linkTargets("see [a](docs/a.md#x), ![i](img/p.png \"t\"), `[no](code.md)`, [w](https://x.org)")).toEqual([
      "docs/a.md#x",
      "img/p.png",
      "https://x.org",
    ]);
    expect([...headingAnchors("# Title\n## 5. `/healthz` while a part is down\n## Billing (Stripe)\n## Billing (Stripe)\n```\n# not a heading\n```")]).toEqual([
      "title",
      "5-healthz-while-a-part-is-down",
      "billing-stripe",
      "billing-stripe-1",
    ]);
  });

  it("every relative link reaches a file, and a heading where it names one", () => {
    expect(pages.length).toBeGreaterThan(10);
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      const text = read(page);
      for (const target of linkTargets(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
        checked++;
        const [file, anchor] = target.split("#") as [string, string | undefined];
        const resolved = file ? path.join(path.dirname(path.join(ROOT, page)), decodeURIComponent(file)) : path.join(ROOT, page);
        if (!fs.existsSync(resolved)) {
          broken.push(`${page}: ${target} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith(".md") && !headingAnchors(fs.readFileSync(resolved, "utf8")).has(anchor)) {
          broken.push(`${page}: ${target} (no such heading)`);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });

  it("every test file docs/readme-claims.md names as a check exists", () => {
    const testFiles = fs.globSync(["app/**/*.test.{ts,tsx}", "workflows/**/*.test.ts", "tests/**/*.test.ts"], { cwd: ROOT });
    const names = new Set(testFiles.map((f) => path.basename(f)));
    const named = [...read("docs/readme-claims.md").matchAll(/`([\w./*-]+\.test\.tsx?)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(30);
    const missing = named.filter((name) => {
      if (name.includes("*")) {
        const pattern = new RegExp(`^${name.replace(/[.]/g, "\\.").replace(/\*/g, "[^/]*")}$`);
        return !testFiles.some((f) => pattern.test(name.includes("/") ? f : path.basename(f)));
      }
      return name.includes("/") ? !fs.existsSync(path.join(ROOT, name)) : !names.has(name);
    });
    expect(missing).toEqual([]);
  });

  it("docs/configuration.md names every setting checked at start", () => {
    const page = read("docs/configuration.md");
    const settings = [...SETTING_NAMES, ...Object.keys(PlatformEnvSchema.shape)];
    expect(settings.length).toBeGreaterThan(80);
    expect(settings.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });
});
