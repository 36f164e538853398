import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400 } from "~/server/api-v1.server";
import { CalendarQuerySchema, CalendarSchema, ChannelIdParamsSchema } from "~/server/channels-api.server";
import { channelCalendar } from "~/server/channels.server";

// GET /api/v1/channels/{id}/calendar?weeks=4&weeksBack=0: the channel's weeks, each slot's idea and state in words.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ChannelIdParamsSchema, params);
    const query = parseOr400(CalendarQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    return apiJson(CalendarSchema, await channelCalendar(userId, id, query));
  });
}
