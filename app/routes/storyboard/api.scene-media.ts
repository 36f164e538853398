import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MULTIPART_OVERHEAD, jsonError, methodNotAllowed, parseJsonBody, readMultipartStream, thrownResponse } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { requireCurrentProject } from "~/core/projects.server";
import {
  clipConversionProgress,
  listProjectImages,
  pickProjectImage,
  restoreGeneratedImage,
  SceneMediaRejection,
  showReceivedSceneUpload,
} from "~/server/scene-media.server";
import { clipUploadMaxBytes, discardSceneUpload, receiveSceneUpload, sceneUploadTooLargeMessage, type ReceivedSceneUpload } from "~/server/scene-upload.server";

const CellIndex = z.coerce.number({ message: "cellIndex must be a number" }).int("cellIndex must be a whole number").min(0).max(10_000);
const PickSchema = z.object({ cellIndex: CellIndex, mediaFileId: z.string().trim().min(1, "Choose an image").max(64) });
const UndoSchema = z.object({ cellIndex: CellIndex });


// GET /api/scene-media: the current project's images a scene can use (generated ones and uploads).
// GET /api/scene-media?clipProgress=<cellIndex>: how far the worker is in converting that scene's uploaded clip.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const project = await requireCurrentProject(userId, "cellIndex");
  const asked = new URL(request.url).searchParams.get("clipProgress");
  if (asked !== null) {
    const cellIndex = CellIndex.safeParse(asked);
    if (!cellIndex.success) return jsonError(400, `clipProgress: ${cellIndex.error.issues[0]!.message}`, { field: "clipProgress" });
    return Response.json({ progress: await clipConversionProgress(project, cellIndex.data) }, { headers: { "Cache-Control": "no-store" } });
  }
  return Response.json({ images: await listProjectImages(userId, project.id) });
}

// POST (multipart: cellIndex, file): the creator's own image or clip for a scene.
// PUT {cellIndex, mediaFileId}: one of the project's earlier images. DELETE {cellIndex}: back to the generated image.
export async function action({ request }: ActionFunctionArgs) {
  const userId = await requireUserId(request);
  if (request.method === "PUT") {
    const body = await parseJsonBody(request, PickSchema);
    return Response.json(await pickProjectImage(userId, await requireCurrentProject(userId, "cellIndex"), body.cellIndex, body.mediaFileId));
  }
  if (request.method === "DELETE") {
    const body = await parseJsonBody(request, UndoSchema);
    return Response.json(await restoreGeneratedImage(await requireCurrentProject(userId, "cellIndex"), body.cellIndex));
  }
  if (request.method !== "POST") return methodNotAllowed(["GET", "HEAD", "POST", "PUT", "DELETE"], "Use POST to upload, PUT to pick an earlier image, DELETE to undo.");

  // the creator's project before the body: the file goes to storage as it arrives (decision 199)
  const project = await requireCurrentProject(userId, "cellIndex");
  if (!request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    return jsonError(400, 'Send the file as multipart/form-data in the field "file", with the scene in "cellIndex".', { field: "file" });
  }
  let form: { fields: Map<string, string>; file: ReceivedSceneUpload | null };
  try {
    // capped as a stream (a chunked body has no Content-Length), with a bounded number of parts; never whole in memory
    form = await readMultipartStream(request, {
      fileField: "file",
      maxBodyBytes: clipUploadMaxBytes() + MULTIPART_OVERHEAD,
      tooLarge: sceneUploadTooLargeMessage(),
      field: "file",
      receive: (file) => receiveSceneUpload(userId, project, file),
      discard: discardSceneUpload,
    });
  } catch (e) {
    const answer = thrownResponse(e);
    if (answer) return answer;
    if (e instanceof SceneMediaRejection) return jsonError(e.status, e.message, { field: "file" });
    throw e;
  }
  const cellIndex = CellIndex.safeParse(form.fields.get("cellIndex"));
  if (!cellIndex.success) {
    await discardSceneUpload(form.file);
    return jsonError(400, `cellIndex: ${cellIndex.error.issues[0]!.message}`, { field: "cellIndex" });
  }
  if (!form.file) return jsonError(400, 'Choose an image or clip to upload (form field "file").', { field: "file" });
  try {
    return Response.json(await showReceivedSceneUpload(userId, project, cellIndex.data, form.file));
  } catch (e) {
    if (e instanceof SceneMediaRejection) return jsonError(e.status, e.message, { field: "file" });
    throw e;
  }
}
