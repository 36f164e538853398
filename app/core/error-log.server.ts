// The error log (spec: GET/POST/DELETE /api/error-logs, the owner's Recent Errors card). Pipeline failures
// land here with a type ("script_generation", "storyboard_generation", ...) and a message a person can act on.
// Saved secrets are scrubbed from every message, on the way in and on the way out.
import type { Prisma } from "~/generated/prisma/client";
import { scrubSecrets } from "~/lib/scrub";
import { prisma } from "./db.server";
import { getSavedSecrets, redactSecrets } from "./settings.server";

export type ErrorLogEntry = { id: string; type: string; message: string; timestamp: string };

const MAX_MESSAGE_CHARS = 4000;
const MAX_LISTED = 100;

export async function logError(input: { userId?: string | null; type: string; message: string; context?: Prisma.InputJsonValue }): Promise<ErrorLogEntry> {
  const secrets = input.userId ? await getSavedSecrets(input.userId) : [];
  const scrub = (text: string) => scrubSecrets(redactSecrets(text, secrets)).replaceAll("\u0000", "");
  const row = await prisma.errorLog.create({
    data: {
      userId: input.userId ?? null,
      type: scrub(input.type).slice(0, 100),
      message: scrub(input.message).slice(0, MAX_MESSAGE_CHARS),
      context: input.context === undefined ? undefined : (JSON.parse(scrub(JSON.stringify(input.context))) as Prisma.InputJsonValue),
    },
  });
  return { id: row.id, type: row.type, message: row.message, timestamp: row.createdAt.toISOString() };
}

/**
 * Newest first. `scope: "all"` is the owner's view of the whole instance; otherwise only the user's own
 * entries. Messages are scrubbed again here, in case a writer logged through the database directly.
 */
export async function listErrorLogs(options: { userId: string; scope: "own" | "all"; limit?: number }): Promise<ErrorLogEntry[]> {
  const rows = await prisma.errorLog.findMany({
    where: options.scope === "all" ? {} : { userId: options.userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(options.limit ?? MAX_LISTED, MAX_LISTED),
  });
  const secretsByUser = new Map<string, string[]>();
  for (const userId of new Set(rows.map((r) => r.userId).filter((id): id is string => !!id))) {
    secretsByUser.set(userId, await getSavedSecrets(userId));
  }
  return rows.map((row) => {
    const secrets = row.userId ? (secretsByUser.get(row.userId) ?? []) : [];
    return { id: row.id, type: scrubSecrets(redactSecrets(row.type, secrets)), message: scrubSecrets(redactSecrets(row.message, secrets)), timestamp: row.createdAt.toISOString() };
  });
}

export async function clearErrorLogs(options: { userId: string; scope: "own" | "all" }): Promise<number> {
  const { count } = await prisma.errorLog.deleteMany({ where: options.scope === "all" ? {} : { userId: options.userId } });
  return count;
}

/**
 * Temporal activity: a pipeline workflow records its failure. Call it from the workflow's catch block
 * (in a non-cancellable scope), with the stage as the type.
 */
export async function logPipelineError(input: { userId: string; projectId?: string; type: string; message: string }): Promise<void> {
  await logError({ userId: input.userId, type: input.type, message: input.message, context: input.projectId ? { projectId: input.projectId } : undefined });
}

/**
 * The answer when a provider call made for a settings screen fails: logged (secrets scrubbed), and a 502 whose
 * message says what failed and which key to check.
 */
export async function providerFailure(input: { userId: string; error: unknown; type: string; what: string; keyName: string }): Promise<Response> {
  const entry = await logError({ userId: input.userId, type: input.type, message: `Failed to ${input.what}: ${(input.error as Error)?.message ?? String(input.error)}` });
  return Response.json(
    { message: `${entry.message.replace(/\.+$/, "")}. Check your ${input.keyName} in Settings.` },
    { status: 502, headers: { "Cache-Control": "no-store" } },
  );
}
