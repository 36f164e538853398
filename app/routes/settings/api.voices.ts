import type { ActionFunctionArgs } from "@remix-run/node";
import { VOICE_UPLOAD_MAX_BYTES, voiceUploadTooLargeMessage } from "~/lib/voice-upload";
import { MULTIPART_OVERHEAD, jsonError, methodNotAllowed, readMultipartStream, thrownResponse } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { isOwner } from "~/core/permissions.server";
import { receiveVoiceUpload, VoiceUploadRejection, type UploadedVoice } from "~/core/stored-voices.server";

// POST /api/voices (multipart: licence, config, then model): the owner adds a Piper neural voice (issue 48, decision
// 210). "licence" is the text shown beside the voice, "config" the voice's .onnx.json as text, "model" its .onnx file,
// streamed to media storage as it arrives (at most 200 MB; never whole in memory). Every worker finds it there.
// Owner only: anyone else gets 403 before the body is read.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST with the voice's files to add a voice.");
  if (!isOwner(user)) return jsonError(403, "Only the owner account can add voices.", { field: "model" });
  if (!request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    return jsonError(400, 'Send the voice as multipart/form-data: "licence" and "config" (the .onnx.json) first, then the "model" file (.onnx).', { field: "model" });
  }
  let form: { fields: Map<string, string>; file: UploadedVoice | null };
  try {
    form = await readMultipartStream(request, {
      fileField: "model",
      maxBodyBytes: VOICE_UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD,
      tooLarge: voiceUploadTooLargeMessage(),
      field: "model",
      receive: receiveVoiceUpload,
    });
  } catch (e) {
    const answer = thrownResponse(e);
    if (answer) return answer;
    if (e instanceof VoiceUploadRejection) return jsonError(e.status, e.message, { field: e.field });
    throw e;
  }
  if (!form.file) return jsonError(400, 'Choose the voice model (.onnx) to upload (form field "model").', { field: "model" });
  return Response.json({ voice: form.file }, { status: 201 });
}
