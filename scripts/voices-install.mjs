// npm run voices:install: installs the neural voice the tests use (en_US-joe-medium) once per machine, and prints
// the folder it is in (npm start and npm test call the same function).
//   npm run voices:install -- <voice.onnx> [--licence "<text>"]   adds a Piper voice you have (its .onnx.json beside
//                                                                  it) to DATA_DIR/voices, where every picker finds it
import fs from "node:fs";
import path from "node:path";
import { DATA_DIR } from "./lib/paths.mjs";
import { ensureTestVoice, TEST_VOICE } from "./lib/voices.mjs";

const args = process.argv.slice(2);
const model = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--licence");
if (!model) {
  const dir = await ensureTestVoice();
  if (!dir) process.exit(1);
  console.log(`${dir}/${TEST_VOICE.name}.onnx`);
} else {
  const licenceAt = args.indexOf("--licence");
  const licence = licenceAt >= 0 ? args[licenceAt + 1] : undefined;
  const fail = (message) => {
    console.error(message);
    process.exit(1);
  };
  if (!model.endsWith(".onnx") || !fs.existsSync(model)) fail(`${model}: give a Piper voice's .onnx file (its .onnx.json beside it).`);
  let config;
  try {
    config = JSON.parse(fs.readFileSync(`${model}.json`, "utf8"));
  } catch (e) {
    fail(`${model}.json could not be read (${e.message}): a Piper voice comes as <name>.onnx with <name>.onnx.json.`);
  }
  if (!config?.phoneme_id_map || !config?.espeak?.voice || !config?.audio?.sample_rate) {
    fail(`${model}.json is not a Piper voice's config (it needs phoneme_id_map, espeak.voice and audio.sample_rate).`);
  }
  const name = path.basename(model, ".onnx");
  const dir = path.join(DATA_DIR, "voices");
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(`${model}.json`, path.join(dir, `${name}.onnx.json`));
  if (licence) fs.writeFileSync(path.join(dir, `${name}.licence.txt`), `${licence}\n`);
  fs.copyFileSync(model, path.join(dir, `${name}.onnx.part`));
  fs.renameSync(path.join(dir, `${name}.onnx.part`), path.join(dir, `${name}.onnx`));
  console.log(`${path.join(dir, `${name}.onnx`)}${licence ? "" : " (no licence given: the pickers say \"Licence not stated\")"}`);
}
