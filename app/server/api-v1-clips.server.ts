// /api/v1 and MCP access to a video's moving scenes (issue 50, decision 244): the AI clip estimate and spend, a
// request to animate scenes with a budget of its own (refused with the figures, before any workflow starts or any
// service is called, when the estimate passes it), and the transitions between scenes. The request and answer
// schemas (used by the routes, the MCP tools and the OpenAPI document) and the service functions both call.
import "zod-openapi";
import { z } from "zod";
import { CLIP_PRICES, dollars } from "~/lib/clip-prices";
import { FOLLOW_VIDEO, TRANSITION_CHOICES } from "~/lib/transitions";
import { clipEstimateFor, clipSpendFor } from "~/core/clip-budget.server";
import { getProjectForUser } from "~/core/projects.server";
import { getTransitions, saveTransitions } from "~/core/transitions.server";
import { animatingScenes, startAnimateScenes } from "./ai-clips.server";
import { problemBody, PROBLEM_CONTENT_TYPE } from "./problem.server";

const Provider = z.enum(["veo", "runway"], { message: "provider must be veo or runway." }).meta({ description: "veo: Google Veo 3.1 Fast with your Gemini key; runway: Runway Gen-4 Turbo with your Runway key." });
const CellIndexes = z
  .array(z.int("Scenes are named by their 0-based index.").min(0).max(999))
  .min(1, "Choose at least one scene.")
  .max(240)
  .refine((a) => new Set(a).size === a.length, "A scene is named twice.");

export const AiClipEstimateQuerySchema = z
  .object({
    provider: Provider.default("veo"),
    cells: z
      .string()
      .max(2000)
      .regex(/^\d{1,3}(,\d{1,3})*$/, "cells is a comma-separated list of 0-based scene indexes, e.g. 0,2.")
      .optional()
      .meta({ description: "The scenes to estimate (0-based, comma-separated); every scene when absent." }),
  })
  .strict();

export const AnimateScenesSchema = z
  .object({
    provider: Provider,
    source: z.enum(["picture", "words"], { message: "source must be picture or words." }).default("picture").meta({ description: "Animate the scene's picture (keeps the storyboard's look), or make the clip from its words (Veo only)." }),
    cellIndexes: CellIndexes,
    budget: z
      .number({ message: "budget is the most this request may cost, in US dollars." })
      .positive("budget must be more than 0.")
      .max(10_000, "budget must be at most 10000 (US dollars).")
      .meta({ description: "The most this request may cost, in US dollars. When the estimate is more, nothing starts (402, with the figures)." }),
  })
  .strict()
  .meta({ id: "AnimateScenes", example: { provider: "veo", source: "picture", cellIndexes: [0, 2], budget: 2.5 } });

const Generation = z.object({ cellIndex: z.int(), provider: z.string(), model: z.string(), seconds: z.number(), costCents: z.int(), status: z.string(), createdAt: z.string() });
const Spend = z.object({
  monthCents: z.int().describe("What your AI clips cost this calendar month (UTC), in US cents."),
  videoCents: z.int().describe("What this video's AI clips cost so far, in US cents."),
  generations: z.array(Generation).describe("This video's paid generations, newest first."),
});
const Estimate = z.object({
  model: z.object({ provider: z.string(), model: z.string(), label: z.string(), centsPerSecond: z.number(), asOf: z.string(), source: z.string() }),
  perScene: z.array(z.object({ cellIndex: z.int(), seconds: z.number().describe("The clip length asked for."), costCents: z.int() })),
  totalCents: z.int(),
  spent: z.object({ monthCents: z.int(), videoCents: z.int() }),
  monthlyBudgetCents: z.int().nullable().describe("Your monthly AI clip budget (Settings), or null."),
  videoCapCents: z.int().nullable().describe("Your cap per video (Settings), or null."),
});

export const AiClipStatusSchema = z
  .object({ projectId: z.string(), estimate: Estimate, spend: Spend, running: z.boolean().describe("Scenes of this video are being animated now."), prices: z.array(z.object({ provider: z.string(), model: z.string(), label: z.string(), centsPerSecond: z.number(), asOf: z.string(), source: z.string() })) })
  .meta({ id: "AiClipStatus" });

export const AnimateStartedSchema = z.object({ projectId: z.string(), started: z.literal(true), estimate: Estimate, budgetCents: z.int() }).meta({ id: "AnimateStarted" });

const Choice = z.enum(TRANSITION_CHOICES, { message: `a transition is one of: ${TRANSITION_CHOICES.join(", ")}.` });
export const SetTransitionsSchema = z
  .object({
    kind: Choice.optional().meta({ description: "The video's transition between scenes (none: hard cuts)." }),
    seconds: z.number().min(0.2, "A transition lasts at least 0.2 s.").max(1.5, "A transition lasts at most 1.5 s.").optional(),
    perScene: z
      .record(z.string().regex(/^\d{1,3}$/, "scenes are named by their 0-based index."), z.union([Choice, z.literal(FOLLOW_VIDEO)]))
      .optional()
      .meta({ description: 'How a scene comes in, by its index (overrides the video\'s): { "2": "slide" }; "video" drops the scene\'s own choice.' }),
  })
  .strict()
  .meta({ id: "SetTransitions", example: { kind: "fade", seconds: 0.5, perScene: { "2": "zoom" } } });

export const TransitionsSchema = z.object({ kind: Choice, seconds: z.number(), perScene: z.record(z.string(), Choice) }).meta({ id: "Transitions" });

const publicPrices = () => CLIP_PRICES.map(({ provider, model, label, centsPerSecond, asOf, source }) => ({ provider, model, label, centsPerSecond, asOf, source }));

/** The estimate (per scene and in all), what was spent, whether a request is running, and the price table. */
export async function getAiClipStatus(userId: string, projectId: string, query: z.output<typeof AiClipEstimateQuerySchema>) {
  const project = await getProjectForUser(userId, projectId);
  const cellIndexes = query.cells ? query.cells.split(",").map(Number) : undefined;
  const [estimate, spend, running] = await Promise.all([clipEstimateFor(userId, project.id, query.provider, cellIndexes), clipSpendFor(userId, project.id), animatingScenes(project)]);
  return { projectId: project.id, estimate, spend, running, prices: publicPrices() };
}

/**
 * Starts animating scenes when the estimate is within the request's own budget (then the creator's monthly budget
 * and cap per video, and the keys, are checked as for the storyboard's button). Refused before anything starts.
 */
export async function animateProjectScenes(userId: string, projectId: string, request: z.output<typeof AnimateScenesSchema>) {
  const project = await getProjectForUser(userId, projectId);
  const estimate = await clipEstimateFor(userId, project.id, request.provider, request.cellIndexes);
  const budgetCents = Math.round(request.budget * 100);
  if (estimate.perScene.length !== request.cellIndexes.length) {
    throw new Response(JSON.stringify(problemBody(400, "Some of these scenes do not exist.", { field: "cellIndexes" })), { status: 400, headers: { "Content-Type": PROBLEM_CONTENT_TYPE } });
  }
  if (estimate.totalCents > budgetCents) {
    const count = estimate.perScene.length;
    const detail = `Animating ${count} scene${count === 1 ? "" : "s"} with ${estimate.model.label} would cost ${dollars(estimate.totalCents)} (${estimate.perScene.map((s) => `scene ${s.cellIndex}: ${s.seconds} s, ${dollars(s.costCents)}`).join("; ")}), more than the budget of ${dollars(budgetCents)} given. Nothing was started.`;
    // a problem with the figures as extension members (RFC 9457 section 3.2)
    const body = { ...problemBody(402, detail, { field: "budget" }), figures: { estimateCents: estimate.totalCents, budgetCents }, estimate };
    throw new Response(JSON.stringify(body), { status: 402, headers: { "Content-Type": PROBLEM_CONTENT_TYPE, "Cache-Control": "no-store" } });
  }
  const started = await startAnimateScenes(userId, project, { provider: request.provider, source: request.source, cellIndexes: request.cellIndexes });
  return { projectId: project.id, started: true as const, estimate: started.estimate, budgetCents };
}

export async function getProjectTransitions(userId: string, projectId: string) {
  const project = await getProjectForUser(userId, projectId);
  return getTransitions(project.id);
}

export async function setProjectTransitions(userId: string, projectId: string, input: z.output<typeof SetTransitionsSchema>) {
  const project = await getProjectForUser(userId, projectId);
  return saveTransitions(project.id, input);
}
