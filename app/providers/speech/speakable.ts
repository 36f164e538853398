/** Text an offline synthesiser reads well: no control characters, no markup-like brackets, whitespace collapsed. */
export function speakable(text: string): string {
  return [...text]
    .map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? " " : c))
    .join("")
    .replace(/[“”«»]/g, '"')
    .replace(/[‘’]/g, "'")
    .replace(/[—–]/g, ", ")
    .replace(/\s+/g, " ")
    .trim();
}
