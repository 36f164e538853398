import { describe, expect, it } from "vitest";
import { looksLikeSvg, sanitizeSvg } from "./svg-sanitize.server";

const svg = (inner: string, attrs = "") => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"${attrs}>${inner}</svg>`;

describe("looksLikeSvg", () => {
  it("recognises an SVG document, with or without an XML declaration, comments or a doctype", () => {
    expect(looksLikeSvg(Buffer.from(svg("")))).toBe(true);
    expect(looksLikeSvg(Buffer.from(`\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n${svg("")}`))).toBe(true);
  });
  it("rejects other text and HTML", () => {
    expect(looksLikeSvg(Buffer.from("hello world"))).toBe(false);
    expect(looksLikeSvg(Buffer.from(`<html><body>${svg("")}</body></html>`))).toBe(false);
  });
});

describe("sanitizeSvg", () => {
  it("keeps a plain drawing, as XML", () => {
    const result = sanitizeSvg(`<?xml version="1.0"?>${svg('<rect width="10" height="10" fill="#7c3aed"/><text x="1" y="5">A &amp; B</text>')}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.svg).toContain('viewBox="0 0 10 10"');
    expect(result.svg).toContain("<rect");
    expect(result.svg).toContain("A &amp; B");
  });

  it("keeps references inside the document", () => {
    const result = sanitizeSvg(svg('<defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="1" height="1"/><use href="#g"/>'));
    expect(result.ok).toBe(true);
  });

  it.each([
    ["a <script> element", svg("<script>alert(1)</script>"), /<script>/],
    ["an upper-case SCRIPT element", svg("<SCRIPT>alert(1)</SCRIPT>"), /<script>/],
    ["an onload handler", svg("", ' onload="alert(1)"'), /event handler \(onload=\)/],
    ["an onclick handler on a child", svg('<rect onclick="alert(1)" width="1" height="1"/>'), /onclick=/],
    ["an external image", svg('<image href="https://evil.example/x.png"/>'), /external resource/],
    ["an xlink:href to javascript:", svg('<a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="javascript:alert(1)"><text>x</text></a>'), /external resource/],
    ["a style loading a remote url", svg('<rect style="fill:url(https://evil.example/a)" width="1" height="1"/>'), /styles load/],
    ["a style element importing CSS", svg("<style>@import url(https://evil.example/a.css);</style>"), /styles load/],
    ["embedded HTML", svg("<foreignObject><div>x</div></foreignObject>"), /foreignObject/],
    ["an entity declaration", `<!DOCTYPE svg [<!ENTITY x "y">]>${svg("&x;")}`, /entities/],
  ])("refuses %s and says why", (_name, text, reason) => {
    const result = sanitizeSvg(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it("refuses text that is not a single svg element", () => {
    expect(sanitizeSvg("<p>hello</p>").ok).toBe(false);
  });
});
