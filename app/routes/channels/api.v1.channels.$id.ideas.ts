import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { ChannelIdParamsSchema, IdeaListSchema } from "~/server/channels-api.server";
import { AddIdeasSchema, addIdeas, getChannel, listIdeas } from "~/server/channels.server";

// GET /api/v1/channels/{id}/ideas: the queue, each idea's slot and state. POST { ideas | text | csv | suggest } adds to its end -> 201.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ChannelIdParamsSchema, params);
    return apiJson(IdeaListSchema, { ideas: await listIdeas(userId, id) });
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to add ideas, GET to list them.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ChannelIdParamsSchema, params);
    await getChannel(userId, id); // another user's channel: 404 before the body is read
    return apiJson(IdeaListSchema, { ideas: await addIdeas(userId, id, await readApiBody(request, AddIdeasSchema)) }, { status: 201 });
  });
}
