import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, VoicesSchema } from "~/server/api-v1.server";
import { listVoicesAndLanguages } from "~/server/make-video.server";

// GET /api/v1/voices: the voices the caller's videos may use (their voice service's, or the offline ones) and
// the narration languages.
export async function loader({ request }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    return apiJson(VoicesSchema, await listVoicesAndLanguages(userId));
  });
}
