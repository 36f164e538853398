import type { LoaderFunctionArgs } from "@remix-run/node";
import { appOrigin } from "~/server/api.server";
import { openApiDocument } from "~/server/api-v1.server";

// GET /api/v1/docs: the API's reference as a readable page (public), written from the same OpenAPI document
// /api/v1/openapi.json serves, so the two cannot disagree. Plain HTML, no script.

type Schema = { type?: string | string[]; description?: string; enum?: unknown[]; default?: unknown; properties?: Record<string, Schema>; required?: string[]; $ref?: string; anyOf?: Schema[]; items?: Schema; format?: string; minimum?: number; maximum?: number; maxLength?: number };

const esc = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function typeOf(schema: Schema): string {
  if (schema.$ref) return schema.$ref.split("/").pop()!;
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" | ");
  if (schema.type === "array" && schema.items) return `${typeOf(schema.items)}[]`;
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  return schema.format ? `${type} (${schema.format})` : type;
}

function fieldsTable(schema: Schema | undefined): string {
  if (!schema?.properties) return "";
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties)
    .map(([name, field]) => {
      const limits = [field.minimum !== undefined ? `min ${field.minimum}` : "", field.maximum !== undefined ? `max ${field.maximum}` : "", field.maxLength !== undefined ? `at most ${field.maxLength} characters` : ""].filter(Boolean).join(", ");
      return `<tr><td><code>${esc(name)}</code>${required.has(name) ? " <em>required</em>" : ""}</td><td><code>${esc(typeOf(field))}</code></td><td>${field.default !== undefined ? `<code>${esc(JSON.stringify(field.default))}</code>` : ""}</td><td>${esc(field.description ?? "")}${limits ? ` <small>(${esc(limits)})</small>` : ""}</td></tr>`;
    })
    .join("");
  return `<table><thead><tr><th>field</th><th>type</th><th>default</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function loader({ request }: LoaderFunctionArgs) {
  const origin = appOrigin(request);
  const doc = openApiDocument(origin) as unknown as {
    info: { title: string; version: string; description: string };
    paths: Record<string, Record<string, { summary?: string; description?: string; operationId?: string; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { description: string }> }>>;
    components?: { schemas?: Record<string, Schema> };
  };
  const schemas = doc.components?.schemas ?? {};
  const resolve = (s: Schema | undefined) => (s?.$ref ? schemas[s.$ref.split("/").pop()!] : s);
  const operations = Object.entries(doc.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const body = resolve(op.requestBody?.content["application/json"]?.schema);
        const answers = Object.entries(op.responses).map(([status, r]) => `<li><code>${esc(status)}</code> ${esc(r.description)}</li>`).join("");
        return `<section id="${esc(op.operationId ?? path)}"><h3><code>${esc(method.toUpperCase())} ${esc(path)}</code></h3><p>${esc(op.summary ?? "")}${op.description ? `. ${esc(op.description)}` : ""}</p>${body ? `<h4>Body</h4>${fieldsTable(body)}` : ""}<h4>Answers</h4><ul>${answers}</ul></section>`;
      }),
    )
    .join("");
  const curl = `curl -X POST ${origin}/api/v1/videos \\
  -H "Authorization: Bearer $REELSMITH_TOKEN" -H "Content-Type: application/json" \\
  -d '{"title":"Why octopuses have three hearts","topic":"Octopus biology","format":"9:16","duration":15}'`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(doc.info.title)} ${esc(doc.info.version)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;background:#0f172a;color:#e2e8f0}a{color:#38bdf8}code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#020617;padding:1rem;overflow:auto;border-radius:6px}table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #334155;padding:.3rem .5rem;text-align:left;vertical-align:top}section{border-top:1px solid #334155;margin-top:1.5rem}em{color:#fbbf24;font-style:normal;font-size:12px}</style></head>
<body><main><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1><p>${esc(doc.info.description)}</p>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1; generate a client with e.g. <code>npx openapi-typescript ${esc(origin)}/api/v1/openapi.json -o reelsmith.d.ts</code>). Tokens: Settings &gt; API tokens. MCP clients: <code>${esc(origin)}/mcp</code> with the same token.</p>
<h2>Make a video</h2><pre>${esc(curl)}</pre><p>Then poll <code>GET /api/v1/videos/{id}</code> until <code>status</code> is <code>completed</code> (or <code>failed</code>, with <code>error</code> in words) and download <code>links.video</code> with the same header.</p>
<h2>Errors</h2><p>Every error is an RFC 9457 problem (<code>application/problem+json</code>):</p>${fieldsTable(schemas.Problem)}
<h2>Operations</h2>${operations}
<h2>The Video object</h2>${fieldsTable(schemas.Video)}
</main></body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
