// npm run voices:install: installs the neural voice the tests use (en_US-joe-medium) once per machine, and prints
// the folder it is in. npm start and npm test call the same function.
import { ensureTestVoice, TEST_VOICE } from "./lib/voices.mjs";

const dir = await ensureTestVoice();
if (!dir) process.exit(1);
console.log(`${dir}/${TEST_VOICE.name}.onnx`);
