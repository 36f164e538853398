// /api/v1's contract for Shorts and versions of a video (issue 51): the request and answer schemas, used by the routes
// (answers checked before they leave) and by the OpenAPI document (app/server/api-v1.server.ts).
import "zod-openapi";
import { z } from "zod";
import { SHORT_DEFAULT_SECONDS, SHORT_MAX_SECONDS, ShortRequestSchema } from "~/lib/short-runs";
import { VersionRequestSchema } from "./versions.server";

export const ProjectIdParamsSchema = z.object({
  id: z.string().min(1).max(64).meta({ description: "The project's id (a video's `projectId`).", example: "cmc1a2b3c0000xyz" }),
});

export const ShortOptionsQuerySchema = z
  .object({
    maxSeconds: z.coerce
      .number({ message: `maxSeconds must be a number from 10 to ${SHORT_MAX_SECONDS}.` })
      .int("maxSeconds must be a whole number.")
      .min(10, "maxSeconds must be at least 10.")
      .max(SHORT_MAX_SECONDS, `maxSeconds must be at most ${SHORT_MAX_SECONDS}.`)
      .default(SHORT_DEFAULT_SECONDS),
  })
  .strict();

export const CreateShortSchema = ShortRequestSchema.meta({
  id: "CreateShort",
  description: "A run of the video's scenes (0-based, both included) as a Short; `hook` is the opening line drawn on its first picture (default: the run's first sentence).",
  example: { fromScene: 0, toScene: 3, hook: "Why do octopuses have three hearts?", maxSeconds: 60 },
});

export const ShortOptionsSchema = z
  .object({
    projectId: z.string(),
    title: z.string(),
    resolution: z.string(),
    maxSeconds: z.number(),
    limitSeconds: z.number().describe("The longest Short the platform takes (YouTube: 180 s)."),
    ready: z.boolean().describe("Every scene has its picture and voiceover."),
    scenes: z.array(z.object({ cellIndex: z.int(), text: z.string(), seconds: z.number(), imageUrl: z.string().nullable() })),
    suggestions: z.array(z.object({ fromScene: z.int(), toScene: z.int(), seconds: z.number(), hook: z.string(), reason: z.string() })).describe("Suggested runs, each within maxSeconds, not overlapping."),
    suggestedBy: z.string().describe('Who picked the suggestions: your text model (e.g. "Google Gemini") or "Rule-based pick" (offline).'),
    notice: z.string().nullable().describe("Why your text model's pick was not used, when it was not."),
  })
  .meta({ id: "ShortOptions" });

const Box = z.object({ left: z.number(), top: z.number(), size: z.number() });
const Rect = z.object({ left: z.number(), top: z.number(), width: z.number(), height: z.number() });
export const ShortSchema = z
  .object({
    projectId: z.string().describe("The Short's own project (9:16), linked to its source; render and publish it like any project."),
    title: z.string(),
    seconds: z.number().describe("Its length with the end card, as rendered."),
    scenes: z.int(),
    reframing: z.array(z.object({ cellIndex: z.int(), method: z.enum(["subject", "saliency"]), subject: Box.nullable(), crop: Rect.nullable() })),
  })
  .meta({ id: "Short" });

export const CreateVersionSchema = VersionRequestSchema.meta({
  id: "CreateVersion",
  description: "The video in another language, machine translated (by your text model when you saved its key, offline by Apertium otherwise). `voiceovers: false` leaves the voiceovers for after proofreading.",
  example: { language: "es", voiceovers: true },
});

export const VersionOptionsSchema = z
  .object({ projectId: z.string(), language: z.string(), translator: z.string(), targets: z.array(z.object({ code: z.string(), name: z.string() })) })
  .meta({ id: "VersionOptions" });

export const VersionSchema = z
  .object({
    projectId: z.string().describe("The version's own project, linked to its source, with the same pictures."),
    title: z.string(),
    language: z.string(),
    translatedBy: z.string().describe("Machine translation: offer a proofreading step."),
    scenes: z.int(),
    voiceovers: z.enum(["started", "after proofreading"]),
  })
  .meta({ id: "Version" });
