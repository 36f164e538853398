// A text provider for workflow tests: predictable words, optional delay and injected failures.
// (The real offline writer is tested on its own; these tests are about the workflow.)
import type { SpeechProvider, TextProvider } from "~/providers/types";

/**
 * The voice that "reads" a scripted script: a cloud voice by its kind, so the script is planned at the typical
 * cloud pace (no synthesis to measure) and never rewritten to fit (only the offline writer is).
 */
export const scriptedVoice: SpeechProvider = {
  name: "scripted voice",
  source: "cloud",
  async listVoices() {
    return [];
  },
  async synthesize() {
    throw new Error("the scripted voice does not speak");
  },
};

export type ScriptedTextOptions = {
  delayMs?: number;
  /** Fail this many writeScriptChunk calls before succeeding. */
  failFirstChunkCalls?: number;
  /** Chunks come back at this share of their target, so the workflow must expand them. */
  shortChunkRatio?: number;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function words(prefix: string, count: number): string {
  const sentences: string[] = [];
  for (let n = 0, i = 0; n < count; i++) {
    const length = Math.min(8, count - n);
    const body = Array.from({ length }, (_, k) => (k === 0 ? `${prefix}s${i}` : `word${k}`)).join(" ");
    sentences.push(`${body}.`);
    n += length;
  }
  return sentences.join(" ");
}

export function scriptedTextProvider(options: ScriptedTextOptions = {}) {
  const calls = { writeScriptChunk: 0, expandScriptChunk: 0, proofreadScript: 0, failures: 0 };
  const provider: TextProvider = {
    name: "scripted",
    source: "offline",
    async writeScriptChunk(request) {
      calls.writeScriptChunk++;
      if (options.delayMs) await sleep(options.delayMs);
      if (calls.failures < (options.failFirstChunkCalls ?? 0)) {
        calls.failures++;
        throw new Error(`scripted failure ${calls.failures}`);
      }
      const count = Math.round(request.targetWords * (options.shortChunkRatio ?? 1));
      return words(`chunk${request.chunkIndex}`, count);
    },
    async expandScriptChunk(request) {
      calls.expandScriptChunk++;
      if (options.delayMs) await sleep(options.delayMs);
      const missing = request.targetWords - request.text.split(/\s+/).length;
      return `${request.text} ${words(`expand${request.attempt}x`, Math.max(missing, 1))}`;
    },
    async proofreadScript(request) {
      calls.proofreadScript++;
      return request.text.replace(/\s+\n/g, "\n");
    },
    async splitIntoScenes() {
      throw new Error("not used by the script workflow");
    },
    async writeUploadMetadata() {
      throw new Error("not used by the script workflow");
    },
  };
  return { provider, calls };
}
