// A speech engine in a Node process of its own, spoken to over Node's IPC channel: the Piper voice's ONNX session
// (piper-voice-process.mjs, decision 282) and the Flite synthesiser (flite-process.mjs, decision 283). Each request
// carries an id and gets one answer with that id, or `{ id, error }`. An idle process never keeps its parent alive,
// and it ends with its parent (the script exits when the channel closes). A process that stops fails what it had in
// flight, and every later request: its owner starts another.
import { spawn, type ChildProcess } from "node:child_process";

type Pending = { resolve: (value: Record<string, unknown>) => void; reject: (e: Error) => void };

export class SpeechProcess<Answer extends Record<string, unknown>> {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private failed: Error | null = null;

  /** `script`: the process's module; `name`: how errors name it ("the voice's process"). */
  constructor(
    script: string,
    private readonly name: string,
    nodeArgs: string[] = [],
  ) {
    // NODE_OPTIONS is the parent's (a test's loader, a profiler): the engine's process is plain Node
    const { NODE_OPTIONS: _, ...env } = process.env;
    this.child = spawn(process.execPath, ["--no-warnings", ...nodeArgs, script], { stdio: ["ignore", "ignore", "inherit", "ipc"], serialization: "advanced", env });
    this.idle();
    this.child.on("message", (m: { id: number; error?: string }) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (!waiting) return;
      if (m.error) waiting.reject(new Error(m.error));
      else waiting.resolve(m);
    });
    const stop = (e: Error) => {
      this.failed ??= e;
      for (const waiting of this.pending.values()) waiting.reject(this.failed);
      this.pending.clear();
    };
    this.child.on("error", stop);
    this.child.on("exit", (code, signal) => stop(new Error(`${this.name} stopped (${signal ? `signal ${signal}` : `exit code ${code}`})`)));
  }

  private idle() {
    this.child.unref();
    this.child.channel?.unref();
  }

  /** Whether the process has stopped (or failed to start): its requests fail from then on. */
  get stopped(): boolean {
    return this.failed !== null;
  }

  /** How many requests wait for their answer. */
  get busy(): number {
    return this.pending.size;
  }

  request(message: Record<string, unknown>): Promise<Answer> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise<Answer>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as Pending["resolve"], reject });
      // a request in flight keeps the parent alive until it is answered
      this.child.ref();
      this.child.channel?.ref();
      this.child.send({ ...message, id }, (e) => {
        if (e) reject(e);
      });
    }).finally(() => {
      if (this.pending.size === 0) this.idle();
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill();
    await exited;
  }
}
