// The offline text provider: the grammar writer, the scene split and metadata, with no key and no network.
import type { TextProvider } from "../types";
import { countWords } from "./language";
import { expandOfflineChunk, writeOfflineChunk } from "./offline-writer";
import { offlineScenes, offlineUploadMetadata, proofreadText } from "./scenes";

export function createOfflineTextProvider(): TextProvider {
  return {
    name: "Offline writer",
    source: "offline",
    async writeScriptChunk(request) {
      return writeOfflineChunk(request);
    },
    async expandScriptChunk(request) {
      if (countWords(request.text) >= request.targetWords) return request.text;
      return expandOfflineChunk(request);
    },
    async proofreadScript(request) {
      return proofreadText(request.text, request.language);
    },
    async splitIntoScenes(request) {
      return offlineScenes(request.script, request.title, request.resolution === "16:9" ? "16:9" : "9:16", request.sceneCount, request.seed, request.language);
    },
    async writeUploadMetadata(request) {
      return offlineUploadMetadata(request.title, request.script, request.language);
    },
  };
}
