// Marking a Piper model's Ceil output (its phoneme durations) as a graph output, on the protobuf bytes.
import { describe, expect, it } from "vitest";
import { withDurationOutput } from "./onnx-duration-output";

const varint = (n: number) => {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
};
const field = (number: number, value: Buffer | string) => {
  const bytes = typeof value === "string" ? Buffer.from(value) : value;
  return Buffer.concat([varint(number * 8 + 2), varint(bytes.length), bytes]);
};
const node = (op: string, output: string) => field(1, Buffer.concat([field(2, output), field(4, op)]));
const output = (name: string) => field(12, field(1, name));
/** ModelProto: ir_version (1, varint), then graph (7) holding nodes, a big initializer (5) and outputs. */
const model = (...graph: Buffer[]) => Buffer.concat([Buffer.from([0x08, 0x08]), field(7, Buffer.concat(graph)), field(2, "test")]);

describe("withDurationOutput", () => {
  it("adds the Ceil node's output to the graph's outputs, leaving the rest as it was", () => {
    const initializer = field(5, Buffer.alloc(300, 7));
    const original = model(node("Mul", "a"), node("Ceil", "/Ceil_output_0"), initializer, output("output"));
    const { model: patched, durationsOutput } = withDurationOutput(original);
    expect(durationsOutput).toBe("/Ceil_output_0");
    // the graph's outputs: the audio, then the durations
    expect(original.indexOf(output("/Ceil_output_0"))).toBe(-1);
    expect(patched.indexOf(output("/Ceil_output_0"))).toBeGreaterThan(patched.indexOf(output("output")));
    // one output entry more, the graph's length prefix still two bytes; the fields after the graph kept
    expect(patched.length).toBe(original.length + field(12, field(1, "/Ceil_output_0")).length);
    expect(patched.subarray(patched.length - field(2, "test").length)).toEqual(field(2, "test"));
  });

  it("keeps a model that already outputs its durations, and names none when there is no single Ceil", () => {
    const done = model(node("Ceil", "w"), output("output"), output("w"));
    expect(withDurationOutput(done)).toEqual({ model: done, durationsOutput: "w" });
    const none = model(node("Mul", "a"), output("output"));
    expect(withDurationOutput(none)).toEqual({ model: none, durationsOutput: null });
    const two = model(node("Ceil", "a"), node("Ceil", "b"), output("output"));
    expect(withDurationOutput(two).durationsOutput).toBeNull();
  });

  it("refuses bytes that are not an ONNX model", () => {
    expect(() => withDurationOutput(Buffer.from([0x08, 0x01]))).toThrow("not an ONNX model");
  });
});
