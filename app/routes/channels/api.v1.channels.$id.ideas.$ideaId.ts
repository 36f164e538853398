import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { ChannelDeletedSchema, IdeaIdParamsSchema, IdeaSchema } from "~/server/channels-api.server";
import { changeIdea, deleteIdea, getChannel, IdeaPatchSchema } from "~/server/channels.server";

// PATCH /api/v1/channels/{id}/ideas/{ideaId} { action: approve | move (slotAt) | retry }; DELETE removes it.
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed(["PATCH", "DELETE"], "Use PATCH to approve or move an idea, DELETE to remove it.");
    const { userId } = await requireApiCaller(request);
    const { id, ideaId } = parseOr400(IdeaIdParamsSchema, params);
    if (request.method === "DELETE") return apiJson(ChannelDeletedSchema, await deleteIdea(userId, id, ideaId));
    await getChannel(userId, id); // another user's channel: 404 before the body is read
    return apiJson(IdeaSchema, await changeIdea(userId, id, ideaId, await readApiBody(request, IdeaPatchSchema)));
  });
}
