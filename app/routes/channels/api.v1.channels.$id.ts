import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { ChannelDeletedSchema, ChannelIdParamsSchema, ChannelSchema } from "~/server/channels-api.server";
import { ChannelPatchSchema, deleteChannel, getChannel, updateChannel } from "~/server/channels.server";

// GET /api/v1/channels/{id}; PATCH (any of the create fields) changes it; DELETE removes it and its queue (its videos stay).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ChannelIdParamsSchema, params);
    return apiJson(ChannelSchema, await getChannel(userId, id));
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed(["PATCH", "DELETE"], "Use PATCH to change a channel, DELETE to remove it.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ChannelIdParamsSchema, params);
    if (request.method === "DELETE") return apiJson(ChannelDeletedSchema, await deleteChannel(userId, id));
    return apiJson(ChannelSchema, await updateChannel(userId, id, await readApiBody(request, ChannelPatchSchema)));
  });
}
