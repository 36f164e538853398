// Which state the storyboard page is in, from what its reads last said. A finished split whose scenes have not
// been read yet is "loading-scenes", not "empty": the page never flashes "Ready to Generate Storyboard" after
// the split. Without any successful status read and no server, it is "unreachable", never a button to start.

export type StoryboardPageState = "loading" | "unreachable" | "processing" | "error" | "loading-scenes" | "completed" | "empty";

export function storyboardPageState(input: {
  status: { status: "not_found" | "processing" | "completed" | "error"; cellCount: number } | null | undefined;
  statusLoading: boolean;
  unreachable: boolean;
  /** scenes read so far */
  sceneCount: number;
}): StoryboardPageState {
  const { status, statusLoading, unreachable, sceneCount } = input;
  if (!status) return unreachable ? "unreachable" : statusLoading ? "loading" : "empty";
  if (status.status === "processing") return "processing";
  if (status.status === "error") return "error";
  if (status.status === "completed" && sceneCount > 0) return "completed";
  if (status.status === "completed" && status.cellCount > 0) return unreachable ? "unreachable" : "loading-scenes";
  return "empty";
}

/** "12 s" / "1 min 05 s": how long the split has been running. */
export function formatWaited(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}
