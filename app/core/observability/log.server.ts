// Log lines for the web server and the worker (issue 54, decision 208): one JSON object a line (pino), each with the
// ids of what it is about: the HTTP request (requestId), the workflow and activity (workflowId, runId, activityId,
// activityType) and the OpenTelemetry trace (traceId, spanId) active when the line was written. LOG_FORMAT=pretty
// (npm start sets it) writes the same lines readable, one line each, through pino-pretty.
// The processes' own console.log/error lines (from every module that logs) go through the same logger
// (bridgeConsole), so the ids are on every line, not only on the lines this module writes.
import { AsyncLocalStorage } from "node:async_hooks";
import { format } from "node:util";
import { trace } from "@opentelemetry/api";
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";

/** The ids a line carries, set for the length of a request or an activity. */
export type LogContext = { requestId?: string; workflowId?: string; runId?: string; activityId?: string; activityType?: string; stage?: string };

const contexts = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with these ids on every line it (and whatever it awaits) writes. */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return contexts.run({ ...contexts.getStore(), ...context }, fn);
}

/** The ids in force here (the request's, the activity's), with the active trace and span. */
export function currentLogFields(): LogContext & { traceId?: string; spanId?: string } {
  const store = contexts.getStore();
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || span.traceId === "00000000000000000000000000000000") return store ? { ...store } : {};
  return { ...store, traceId: span.traceId, spanId: span.spanId };
}

export type LogFormat = "json" | "pretty";

/** A logger writing to `destination` (stdout by default) in this format; `process` names the writer (web, worker). */
export function createLogger(options: { name: string; format?: LogFormat; level?: string; destination?: pino.DestinationStream }): Logger {
  const logOptions: pino.LoggerOptions = {
    name: options.name,
    level: options.level ?? process.env.LOG_LEVEL ?? "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => currentLogFields(),
  };
  if (options.destination) return pino(logOptions, options.destination);
  if (options.format === "pretty") {
    // in this thread (no transport worker): one readable line per entry, the ids at its end
    return pino(logOptions, pretty({ colorize: false, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname,name", singleLine: true, sync: true }));
  }
  return pino(logOptions, pino.destination({ dest: 1, sync: true }));
}

declare global {
  var __reelsmithLogger: Logger | undefined;
}

/** This process's logger (made on first use: LOG_FORMAT read then). */
export function log(): Logger {
  globalThis.__reelsmithLogger ??= createLogger({ name: process.env.REELSMITH_PROCESS ?? "reelsmith", format: process.env.LOG_FORMAT === "pretty" ? "pretty" : "json" });
  return globalThis.__reelsmithLogger;
}

/** Sets the process's name and logger (the web server and the worker call it first thing). */
export function setProcessLogger(name: string, format: LogFormat): Logger {
  process.env.REELSMITH_PROCESS = name;
  globalThis.__reelsmithLogger = createLogger({ name, format });
  return globalThis.__reelsmithLogger;
}

/** An Error's message and stack, and anything else as util.format shows it. */
function lineOf(args: unknown[]): { msg: string; err?: Error } {
  const err = args.find((a): a is Error => a instanceof Error);
  const rest = err ? args.filter((a) => a !== err) : args;
  const msg = rest.length ? format(...rest) : (err?.message ?? "");
  return err ? { msg, err } : { msg };
}

let bridged = false;

/**
 * console.log/info/debug/warn/error through the process's logger: every module's lines become JSON lines with the
 * ids of the request or activity that wrote them. Idempotent.
 */
export function bridgeConsole(): void {
  if (bridged) return;
  bridged = true;
  const write = (level: "info" | "warn" | "error" | "debug") => (...args: unknown[]) => {
    const { msg, err } = lineOf(args);
    if (err) log()[level]({ err }, msg);
    else log()[level](msg);
  };
  console.log = write("info");
  console.info = write("info");
  console.debug = write("debug");
  console.warn = write("warn");
  console.error = write("error");
}
