import type { LoaderFunctionArgs } from "@remix-run/node";
import { appOrigin } from "~/server/api.server";
import { openApiDocument } from "~/server/api-v1.server";

// GET /api/v1/openapi.json: the OpenAPI 3.1 document of /api/v1, generated from its zod schemas (public).
export function loader({ request }: LoaderFunctionArgs) {
  return Response.json(openApiDocument(appOrigin(request)), { headers: { "Cache-Control": "public, max-age=300" } });
}
