// Which media store a backup reads and a restore writes: the local folder DATA_DIR/media (the default storage).
import path from "node:path";
import { DATA_DIR } from "./paths.mjs";
import { localMediaStore, type MediaStore } from "./backup-archive";

export async function mediaStoreForBackup(): Promise<MediaStore> {
  return localMediaStore(path.join(DATA_DIR, "media"));
}
