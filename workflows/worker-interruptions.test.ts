// Which failures the activity interceptor treats as a full disk or a restarting database (decision 182): the
// errors as they arrive from Node's fs, from ffmpeg's output and from Prisma, and look-alikes that are neither.
import { Prisma } from "~/generated/prisma/client";
import { describe, expect, it } from "vitest";
import { isDatabaseUnreachable, isDiskFull } from "./worker-interruptions";

const prismaError = (message: string, code: string) => new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: "7.10.1" });

describe("isDiskFull", () => {
  it("knows ENOSPC by its code, also wrapped, and by the words ffmpeg prints", () => {
    const fsError = Object.assign(new Error("ENOSPC: no space left on device, copyfile 'a' -> 'b.partial'"), { code: "ENOSPC" });
    expect(isDiskFull(fsError)).toBe(true);
    expect(isDiskFull(new Error("saving the video failed", { cause: Object.assign(new Error("write failed"), { code: "ENOSPC" }) }))).toBe(true);
    expect(isDiskFull(new Error("ffmpeg could not mix the music (exit 1): Could not write header for output file #0: No space left on device"))).toBe(true);
  });

  it("leaves other failures alone", () => {
    expect(isDiskFull(Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" }))).toBe(false);
    expect(isDiskFull(new Error("ffmpeg could not mix the music (exit 1): Invalid data found when processing input"))).toBe(false);
    expect(isDiskFull("ENOSPC")).toBe(false); // not an error object: nothing to read
    expect(isDiskFull(undefined)).toBe(false);
  });
});

describe("isDatabaseUnreachable", () => {
  it("knows PostgreSQL gone, starting up or cutting the connection, as Prisma reports it", () => {
    expect(isDatabaseUnreachable(prismaError("Invalid `prisma.project.findFirst()` invocation:\n\nCan't reach database server at 127.0.0.1:42741", "P1001"))).toBe(true);
    expect(isDatabaseUnreachable(prismaError("Database error. Code: `57P03`. Message: `the database system is starting up`", "P2010"))).toBe(true);
    expect(isDatabaseUnreachable(prismaError("Connection terminated unexpectedly", "P1017"))).toBe(true);
  });

  it("leaves a database that answers with a real error, and another service refusing a connection, alone", () => {
    expect(isDatabaseUnreachable(prismaError("Unique constraint failed on the fields: (`storageKey`)", "P2002"))).toBe(false);
    // a provider's HTTP call refused: not the database, the stage's own retries decide
    expect(isDatabaseUnreachable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9999"), { code: "ECONNREFUSED" }))).toBe(false);
  });
});
