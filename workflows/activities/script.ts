// Activities of the script stage. Built by a factory so tests can hand in a provider of their own.
import type { ExpandChunkRequest, ScriptChunkRequest, TextProvider } from "~/providers/types";
import { prisma } from "~/server/db.server";
import { countWords } from "~/lib/script";
import { withHeartbeat } from "../shared/heartbeat";
import { asActivityFailure, providersForUser } from "./providers";

export type ScriptActivityDeps = { textProviderFor: (userId: string) => Promise<TextProvider> };

const defaultDeps: ScriptActivityDeps = {
  textProviderFor: async (userId) => (await providersForUser(userId)).text,
};

export function createScriptActivities(deps: ScriptActivityDeps = defaultDeps) {
  // Heartbeats while the provider works: a worker that dies mid-call is noticed within the heartbeat
  // timeout, and the chunk is retried on another worker instead of waiting out the whole call timeout.
  const withProvider = async <T>(userId: string, fn: (text: TextProvider) => Promise<T>): Promise<T> => {
    try {
      return await withHeartbeat(async () => fn(await deps.textProviderFor(userId)));
    } catch (e) {
      throw asActivityFailure(e);
    }
  };

  return {
    async markScriptStarted(input: { projectId: string; workflowId: string; targetWords: number }): Promise<void> {
      const data = {
        status: "processing" as const,
        workflowId: input.workflowId,
        targetWords: input.targetWords,
        text: null,
        wordCount: null,
        error: null,
        startedAt: new Date(),
        completedAt: null,
        writtenBy: null,
      };
      await prisma.script.upsert({ where: { projectId: input.projectId }, create: { projectId: input.projectId, ...data }, update: data });
    },

    async writeScriptChunk(input: ScriptChunkRequest & { userId: string }): Promise<string> {
      const { userId, ...request } = input;
      return withProvider(userId, (text) => text.writeScriptChunk(request));
    },

    async expandScriptChunk(input: ExpandChunkRequest & { userId: string }): Promise<string> {
      const { userId, ...request } = input;
      return withProvider(userId, (text) => text.expandScriptChunk(request));
    },

    /** Joins the chunks, proofreads the whole, and saves it as the project's completed script. */
    async proofreadAndSaveScript(input: { projectId: string; userId: string; title: string; chunks: string[] }): Promise<{ wordCount: number }> {
      const joined = input.chunks.map((c) => c.trim()).join("\n\n");
      let writtenBy: string | null = null;
      const text = await withProvider(input.userId, (provider) => {
        writtenBy = provider.name;
        return provider.proofreadScript({ title: input.title, text: joined });
      });
      const wordCount = countWords(text);
      await prisma.script.update({
        where: { projectId: input.projectId },
        // the provider that finished it: the /script page says who wrote it
        data: { status: "completed", text, wordCount, error: null, completedAt: new Date(), writtenBy },
      });
      return { wordCount };
    },

    /** Records a failed or cancelled run, and logs a failure for the owner's error list. */
    async markScriptEnded(input: { projectId: string; status: "error" | "cancelled"; error: string }): Promise<void> {
      await prisma.script.updateMany({ where: { projectId: input.projectId }, data: { status: input.status, error: input.error } });
    },
  };
}

export type ScriptActivities = ReturnType<typeof createScriptActivities>;
