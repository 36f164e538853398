// A local fake of the sunoapi.org music API.
// Shapes from (found with the docs search):
//   https://docs.sunoapi.org/suno-api/get-music-generation-details.md: GET /api/v1/generate/record-info?taskId=...,
//     { code: 200, msg, data: { taskId, status: PENDING|TEXT_SUCCESS|FIRST_SUCCESS|SUCCESS|CREATE_TASK_FAILED|
//     GENERATE_AUDIO_FAILED|CALLBACK_EXCEPTION|SENSITIVE_WORD_ERROR, response: { sunoData: [{ id, audioUrl, title, duration }] },
//     errorMessage } }, Bearer authentication
//   https://docs.sunoapi.org/suno-api/generate-music-callbacks.md: POST /api/v1/generate with callBackUrl; the callback body
//     { code, msg, data: { callbackType: text|first|complete|error, task_id, data: [{ audio_url, title, duration }] } }
// Generate answers { code: 200, msg: "success", data: { taskId } }; each task makes two tracks.
import { pcm16ToWav } from "~/providers/wav";
import { FakeApi, tonePcm, type FakeRequest, type FakeResponse, type Route } from "./fake-api";

type Task = { id: string; prompt: string; callBackUrl: string; polls: number };

export const FAKE_TRACK_SECONDS = 3.5;

export class FakeSuno extends FakeApi {
  readonly tasks = new Map<string, Task>();
  pendingPolls = 1;
  /** When set, tasks end with GENERATE_AUDIO_FAILED. */
  failTasks = false;

  protected keyOf(req: FakeRequest) {
    return (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "") || undefined;
  }

  protected rejectedKey(): FakeResponse {
    return { status: 401, json: { code: 401, msg: "You do not have access permissions", data: null } };
  }

  protected isPublic(req: FakeRequest) {
    return req.path.startsWith("/audio/");
  }

  protected routes(): Route[] {
    return [
      {
        method: "POST",
        pattern: /^\/api\/v1\/generate$/,
        handle: (req) => {
          const body = req.json() as { prompt?: string; callBackUrl?: string; customMode?: boolean; instrumental?: boolean; model?: string };
          if (!body.prompt || !body.callBackUrl || body.customMode === undefined || body.instrumental === undefined || !body.model) {
            return { json: { code: 400, msg: "prompt, customMode, instrumental, model and callBackUrl are required", data: null } };
          }
          const id = `task-${this.tasks.size + 1}`;
          this.tasks.set(id, { id, prompt: body.prompt, callBackUrl: body.callBackUrl, polls: 0 });
          return { json: { code: 200, msg: "success", data: { taskId: id } } };
        },
      },
      {
        method: "GET",
        pattern: /^\/api\/v1\/generate\/record-info$/,
        handle: (req) => {
          const task = this.tasks.get(req.query.get("taskId") ?? "");
          if (!task) return { json: { code: 404, msg: "task not found", data: null } };
          task.polls++;
          const done = task.polls > this.pendingPolls;
          const status = !done ? (task.polls === 1 ? "PENDING" : "FIRST_SUCCESS") : this.failTasks ? "GENERATE_AUDIO_FAILED" : "SUCCESS";
          return {
            json: {
              code: 200,
              msg: "success",
              data: {
                taskId: task.id,
                status,
                type: "GENERATE",
                errorCode: this.failTasks && done ? 501 : null,
                errorMessage: this.failTasks && done ? "Audio generation failed" : null,
                response:
                  status === "SUCCESS"
                    ? {
                        taskId: task.id,
                        sunoData: [1, 2].map((n) => ({
                          id: `${task.id}-${n}`,
                          audioUrl: `${this.url}/audio/${task.id}-${n}.wav`,
                          title: `Fake Song ${n}`,
                          tags: "instrumental",
                          duration: FAKE_TRACK_SECONDS,
                        })),
                      }
                    : null,
              },
            },
          };
        },
      },
      { method: "GET", pattern: /^\/audio\/[^/]+\.wav$/, handle: () => ({ body: pcm16ToWav(tonePcm(FAKE_TRACK_SECONDS, 16000, 330), 16000), contentType: "audio/wav" }) },
    ];
  }
}
