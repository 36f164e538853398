import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { clipSettingsView, saveClipSettings } from "~/core/clip-budget.server";

const cents = (field: string) =>
  z
    .number({ message: `${field} must be a number of US dollars` })
    .min(0, `${field} cannot be negative`)
    .max(100_000, `${field} is at most $100,000`)
    .transform((dollars) => Math.round(dollars * 100))
    .nullable()
    .optional();
const BodySchema = z.object({
  monthlyBudgetDollars: cents("The monthly budget"),
  videoCapDollars: cents("The cap per video"),
  runwayApiKey: z.string().max(500, "The Runway key is at most 500 characters").optional(),
});

// GET /api/ai-clip-settings: the monthly AI clip budget and the cap per video (cents), and whether a Runway key is saved.
export async function loader({ request }: LoaderFunctionArgs) {
  return Response.json(await clipSettingsView(await requireUserId(request)), { headers: { "Cache-Control": "no-store" } });
}

// PUT /api/ai-clip-settings {monthlyBudgetDollars?, videoCapDollars?, runwayApiKey?}: null clears a limit, "" the key.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "HEAD", "PUT"], "Use PUT");
  const userId = await requireUserId(request);
  const body = await parseJsonBody(request, BodySchema);
  await saveClipSettings(userId, { monthlyBudgetCents: body.monthlyBudgetDollars, videoCapCents: body.videoCapDollars, runwayApiKey: body.runwayApiKey });
  return Response.json(await clipSettingsView(userId));
}
