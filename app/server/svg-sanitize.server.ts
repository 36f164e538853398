// SVG uploads are documents that can carry scripts. Before an SVG is stored (and so before it is ever served)
// it is parsed and cleaned by DOMPurify's SVG profile; anything active (scripts, event handlers, external
// references, embedded HTML) is a reason to refuse the file, so the person learns what was wrong with it.
import createDOMPurify, { type DOMPurify } from "dompurify";
import { JSDOM } from "jsdom";

export type SvgCheck = { ok: true; svg: string } | { ok: false; reason: string };

// Same-document fragments and inline raster images are fine; anything else would be fetched by the viewer.
const SAFE_REFERENCE = /^\s*(#|data:image\/(png|jpe?g|gif|webp);)/i;
const REFERENCE_ATTRIBUTES = new Set(["href", "xlink:href", "src"]);
const CSS_EXTERNAL = /@import|url\(\s*(?!['"]?\s*#)/i;

let purify: DOMPurify | undefined;
let serializer: { serializeToString(node: Node): string } | undefined;
let findings: string[] = [];

function instance(): DOMPurify {
  if (purify) return purify;
  const { window } = new JSDOM("");
  serializer = new window.XMLSerializer();
  purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  purify.addHook("uponSanitizeElement", (node, data) => {
    const tag = data.tagName?.toLowerCase();
    if (tag === "script") findings.push("it contains a <script> element");
    else if (tag === "foreignobject") findings.push("it embeds HTML (<foreignObject>)");
    else if (tag === "iframe" || tag === "embed" || tag === "object") findings.push(`it embeds other content (<${tag}>)`);
    else if (tag === "style" && CSS_EXTERNAL.test(node.textContent ?? "")) findings.push("its styles load an external resource");
  });
  purify.addHook("uponSanitizeAttribute", (_node, data) => {
    const name = data.attrName.toLowerCase();
    if (name.startsWith("on")) {
      findings.push(`it has an event handler (${name}=)`);
      data.keepAttr = false;
    } else if (REFERENCE_ATTRIBUTES.has(name) && !SAFE_REFERENCE.test(data.attrValue)) {
      findings.push(`it references an external resource (${name}="${data.attrValue.slice(0, 60)}")`);
      data.keepAttr = false;
    } else if (name === "style" && CSS_EXTERNAL.test(data.attrValue)) {
      findings.push("its styles load an external resource");
      data.keepAttr = false;
    }
  });
  return purify;
}

/** True when the bytes are text whose first element is <svg>. */
export function looksLikeSvg(data: Buffer): boolean {
  const head = data.subarray(0, 4096).toString("utf8").replace(/^\uFEFF/, "");
  return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>\s*)*<svg[\s>/]/i.test(head);
}

/** Refuses an SVG with active content, otherwise returns it cleaned and re-serialised as XML. */
export function sanitizeSvg(text: string): SvgCheck {
  if (/<!ENTITY/i.test(text)) return { ok: false, reason: "it declares XML entities" };
  const dompurify = instance();
  findings = [];
  const body = dompurify.sanitize(text, { USE_PROFILES: { svg: true, svgFilters: true }, RETURN_DOM: true }) as HTMLElement;
  const found = [...new Set(findings)];
  findings = [];
  if (found.length) return { ok: false, reason: found.join("; ") };
  const root = body.firstElementChild;
  if (!root || root.tagName.toLowerCase() !== "svg" || body.children.length !== 1) {
    return { ok: false, reason: "it is not a single <svg> image" };
  }
  return { ok: true, svg: serializer!.serializeToString(root) };
}
