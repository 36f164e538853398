import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, BatchListSchema, BatchSchema, readApiBody } from "~/server/api-v1.server";
import { CreateBatchSchema, createBatch, listBatches, toApiBatch } from "~/server/batches.server";

// GET /api/v1/batches: the caller's batches with each row's stage. POST { rows | csv, concurrency?, name? }: one
// video per row, at most `concurrency` at once -> 201 Batch (decision 164).
export async function loader({ request }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    return apiJson(BatchListSchema, { batches: (await listBatches(userId)).map(toApiBatch) });
  });
}

export async function action({ request }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to start a batch, GET to list them.");
    const { userId } = await requireApiCaller(request);
    const input = await readApiBody(request, CreateBatchSchema);
    return apiJson(BatchSchema, toApiBatch(await createBatch(userId, input)), { status: 201 });
  });
}
