import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, BatchIdParamsSchema, BatchSchema, parseOr400 } from "~/server/api-v1.server";
import { getBatch, toApiBatch } from "~/server/batches.server";

// GET /api/v1/batches/{id}: one batch, each row's stage, percent, error and links (another user's id: 404).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(BatchIdParamsSchema, params);
    return apiJson(BatchSchema, toApiBatch(await getBatch(userId, id)));
  });
}
