import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, readApiBody } from "~/server/api-v1.server";
import { ChannelListSchema, ChannelSchema } from "~/server/channels-api.server";
import { ChannelInputSchema, createChannel, listChannels } from "~/server/channels.server";

// GET /api/v1/channels: the caller's channels. POST { name, timeZone?, kit?, schedule?, approval?, leadHours?, accounts? } -> 201 Channel.
export async function loader({ request }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    return apiJson(ChannelListSchema, { channels: await listChannels(userId) });
  });
}

export async function action({ request }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to make a channel, GET to list them.");
    const { userId } = await requireApiCaller(request);
    const input = await readApiBody(request, ChannelInputSchema);
    return apiJson(ChannelSchema, await createChannel(userId, input), { status: 201 });
  });
}
