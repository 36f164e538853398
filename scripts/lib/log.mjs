// Prefixed, coloured output for the orchestration scripts.
const colours = { reelsmith: 36, postgres: 34, temporal: 35, web: 32, worker: 33, test: 36 };
export function logger(name) {
  const c = colours[name] ?? 37;
  const prefix = process.stdout.isTTY ? `\x1b[${c}m[${name}]\x1b[0m` : `[${name}]`;
  return {
    prefix,
    info: (...a) => console.log(prefix, ...a),
    error: (...a) => console.error(prefix, ...a),
  };
}
