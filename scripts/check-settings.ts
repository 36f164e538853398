// Every setting checked before `npm start` starts anything (issue 47): the same zod schema the web server and the
// worker parse at their own start (app/core/env.server.ts), so a bad value stops the command with its name instead
// of a web server or a worker that the supervisor restarts again and again. Exit code 1 and the lines on stderr.
import { EnvError, parseEnv } from "../app/core/env.server";

try {
  parseEnv(process.env);
} catch (e) {
  if (!(e instanceof EnvError)) throw e;
  console.error(e.message);
  process.exit(1);
}
