import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { CreateApiTokenSchema, createApiToken, listApiTokens } from "~/server/api-tokens.server";
import { requireUserId } from "~/server/auth.server";

// GET /api/api-tokens: the signed-in creator's API tokens (never the secrets). POST { name, scope, expiresInDays }:
// a new token, its secret in the answer this once (decision 160). Session only: a token cannot make tokens.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json({ tokens: await listApiTokens(userId) }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to make a token, DELETE /api/api-tokens/{id} to revoke one.");
  const userId = await requireUserId(request);
  const input = await parseJsonBody(request, CreateApiTokenSchema);
  const made = await createApiToken(userId, input);
  return Response.json(made, { status: 201, headers: { "Cache-Control": "no-store" } });
}
