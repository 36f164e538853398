// What the spec keeps in browser storage: the video details and the current script (a mirror of the server's).
// Corrupt entries are removed; a completed script saved over 30 minutes ago is stale and discarded.
import { z } from "zod";
import { STALE_SCRIPT_MS } from "./constants";
import { VideoDetailsSchema, type VideoDetails } from "./video-details";

export const VIDEO_DETAILS_KEY = "videoDetails";
export const CURRENT_SCRIPT_KEY = "currentScript";

type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

// Made on first use, not when the module loads: /create evaluates this module before it hydrates and reads only
// the video details (issue 36, decision 134).
const makeCurrentScriptSchema = () =>
  z.object({
    title: z.string(),
    topic: z.string(),
    resolution: z.string(),
    duration: z.number(),
    script: z.string().nullable(),
    status: z.enum(["draft", "processing", "completed", "error"]),
    createdAt: z.string(),
    progress: z.unknown().optional(),
    error: z.string().nullable().optional(),
    isStuck: z.boolean().optional(),
  });
let currentScriptSchema: ReturnType<typeof makeCurrentScriptSchema> | undefined;
export type CurrentScript = z.infer<ReturnType<typeof makeCurrentScriptSchema>>;

function read<T>(storage: KeyValueStorage, key: string, schema: z.ZodType<T>): T | null {
  const raw = storage.getItem(key);
  if (raw === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
  } catch {
    /* not JSON */
  }
  storage.removeItem(key);
  return null;
}

export function loadVideoDetails(storage: KeyValueStorage): VideoDetails | null {
  return read(storage, VIDEO_DETAILS_KEY, VideoDetailsSchema);
}

export function saveVideoDetails(storage: KeyValueStorage, details: VideoDetails) {
  storage.setItem(VIDEO_DETAILS_KEY, JSON.stringify(details));
}

export function loadCurrentScript(storage: KeyValueStorage, now = Date.now()): CurrentScript | null {
  const script = read(storage, CURRENT_SCRIPT_KEY, (currentScriptSchema ??= makeCurrentScriptSchema()));
  if (script?.status === "completed" && now - new Date(script.createdAt).getTime() > STALE_SCRIPT_MS) {
    storage.removeItem(CURRENT_SCRIPT_KEY);
    return null;
  }
  return script;
}

export function saveCurrentScript(storage: KeyValueStorage, script: CurrentScript) {
  storage.setItem(CURRENT_SCRIPT_KEY, JSON.stringify(script));
}

export function clearCurrentScript(storage: KeyValueStorage) {
  storage.removeItem(CURRENT_SCRIPT_KEY);
}
