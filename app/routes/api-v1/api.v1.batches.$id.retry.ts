import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, BatchIdParamsSchema, BatchSchema, parseOr400 } from "~/server/api-v1.server";
import { retryBatch, toApiBatch } from "~/server/batches.server";

// POST /api/v1/batches/{id}/retry: makes the batch's failed and cancelled rows again (409 while it runs).
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to retry a batch's failed rows.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(BatchIdParamsSchema, params);
    return apiJson(BatchSchema, toApiBatch(await retryBatch(userId, id)), { status: 202 });
  });
}
