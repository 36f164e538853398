// Marking a Piper model's Ceil output (its phoneme durations) as a graph output, on the protobuf bytes.
import { describe, expect, it } from "vitest";
import { durationsOnly, withDurationOutput } from "./onnx-duration-output";

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

describe("durationsOnly", () => {
  const names = (n: number, list: string[]) => list.map((name) => field(n, name));
  /** NodeProto: inputs (1), outputs (2), op_type (4), and optionally an attribute (5) holding a subgraph (6). */
  const op = (type: string, inputs: string[], outputs: string[], subgraph?: Buffer) =>
    field(1, Buffer.concat([...names(1, inputs), ...names(2, outputs), field(4, type), ...(subgraph ? [field(5, Buffer.concat([field(1, "body"), field(6, subgraph)]))] : [])]));
  /** TensorProto with its name (8) and some weight bytes (9, raw_data... any field will do). */
  const weights = (name: string, size: number) => field(5, Buffer.concat([field(8, name), field(9, Buffer.alloc(size, 1))]));
  const valueInfo = (name: string) => field(13, field(1, name));

  it("keeps what computes the durations and drops the audio's nodes, weights and output", () => {
    // input -> encoder (enc_w) -> logw -> Ceil -> w_ceil; logw and the decoder's weights -> audio
    const original = model(
      field(11, field(1, "input")),
      weights("enc_w", 40),
      weights("dec_w", 4000),
      op("MatMul", ["input", "enc_w"], ["h"]),
      op("Exp", ["h"], ["logw"]),
      op("Ceil", ["logw"], ["w_ceil"]),
      op("Conv", ["h", "dec_w", "w_ceil"], ["audio"]),
      valueInfo("h"),
      valueInfo("audio_mid"),
      output("audio"),
    );
    const cut = durationsOnly(withDurationOutput(original).model, "w_ceil");
    expect(cut.length).toBeLessThan(original.length - 4000);
    expect(cut.indexOf(Buffer.from("dec_w"))).toBe(-1);
    expect(cut.indexOf(Buffer.from("Conv"))).toBe(-1);
    expect(cut.indexOf(output("audio"))).toBe(-1);
    expect(cut.indexOf(Buffer.from("audio_mid"))).toBe(-1);
    for (const kept of [weights("enc_w", 40), op("MatMul", ["input", "enc_w"], ["h"]), op("Ceil", ["logw"], ["w_ceil"]), output("w_ceil"), valueInfo("h"), field(11, field(1, "input"))]) {
      expect(cut.indexOf(kept)).toBeGreaterThan(-1);
    }
    // the model's fields outside the graph are kept
    expect(cut.subarray(0, 2)).toEqual(Buffer.from([0x08, 0x08]));
    expect(cut.subarray(cut.length - field(2, "test").length)).toEqual(field(2, "test"));
  });

  it("keeps the producers of what a kept node's subgraph reads from the outer graph", () => {
    const original = model(
      op("Shape", ["input"], ["len"]),
      op("Relu", ["input"], ["unused"]),
      op("If", ["cond"], ["w"], op("Add", ["len", "one"], ["inner"])),
      op("Ceil", ["w"], ["w_ceil"]),
      output("audio"),
    );
    const cut = durationsOnly(original, "w_ceil");
    expect(cut.indexOf(Buffer.from("Shape"))).toBeGreaterThan(-1);
    expect(cut.indexOf(Buffer.from("Relu"))).toBe(-1);
  });

  it("refuses a model that does not compute the output asked for", () => {
    expect(() => durationsOnly(model(op("Mul", ["a"], ["b"]), output("b")), "w_ceil")).toThrow("no node computing w_ceil");
  });
});
