// A Piper voice's phoneme durations as a second output of its ONNX model. Piper's exported models output only the
// audio, but they compute each phoneme id's length in spectrogram frames (the output of their one `Ceil` node,
// "w_ceil"); Piper's own `patch_voice_with_alignment` marks that tensor as a graph output with the Python `onnx`
// package. This does the same on the model's bytes in memory, with no package: the model is a protobuf
// (ModelProto.graph = field 7; GraphProto.node = 1, .output = 12; NodeProto.output = 2, .op_type = 4;
// ValueInfoProto.name = 1), so appending one `output` entry to the graph is a byte splice. Pure: Buffers only.

type Field = { number: number; wire: number; start: number; valueStart: number; end: number };

function readVarint(buf: Buffer, at: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  let i = at;
  for (;;) {
    if (i >= buf.length) throw new Error("truncated varint");
    const byte = buf[i++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: i };
    scale *= 128;
    if (scale > 2 ** 63) throw new Error("varint too long");
  }
}

function encodeVarint(value: number): Buffer {
  const bytes: number[] = [];
  let v = value;
  while (v >= 0x80) {
    bytes.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

/** The fields of one protobuf message in `buf[from, to)`. */
function* fieldsOf(buf: Buffer, from = 0, to = buf.length): Generator<Field> {
  let at = from;
  while (at < to) {
    const start = at;
    const key = readVarint(buf, at);
    const number = Math.floor(key.value / 8);
    const wire = key.value % 8;
    let valueStart = key.next;
    let end: number;
    if (wire === 0) end = readVarint(buf, valueStart).next;
    else if (wire === 1) end = valueStart + 8;
    else if (wire === 5) end = valueStart + 4;
    else if (wire === 2) {
      const length = readVarint(buf, valueStart);
      valueStart = length.next;
      end = valueStart + length.value;
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
    if (end > to) throw new Error("truncated protobuf field");
    yield { number, wire, start, valueStart, end };
    at = end;
  }
}

const text = (buf: Buffer, f: Field) => buf.toString("utf8", f.valueStart, f.end);

function lengthDelimited(number: number, value: Buffer): Buffer {
  return Buffer.concat([encodeVarint(number * 8 + 2), encodeVarint(value.length), value]);
}

export type DurationOutputModel = {
  /** the model's bytes with the durations tensor as an extra output (the input unchanged when it already was one) */
  model: Buffer;
  /** the durations tensor's name; null when the model has no single Ceil node (then no word timings from it) */
  durationsOutput: string | null;
};

/** The model with its phoneme durations ("w_ceil", per phoneme id, in frames) as a graph output. */
export function withDurationOutput(model: Buffer): DurationOutputModel {
  const graph = [...fieldsOf(model)].find((f) => f.number === 7 && f.wire === 2);
  if (!graph) throw new Error("not an ONNX model: it has no graph");
  const ceilOutputs: string[] = [];
  const outputs: string[] = [];
  for (const f of fieldsOf(model, graph.valueStart, graph.end)) {
    if (f.number === 1 && f.wire === 2) {
      let op = "";
      const names: string[] = [];
      for (const n of fieldsOf(model, f.valueStart, f.end)) {
        if (n.number === 4 && n.wire === 2) op = text(model, n);
        else if (n.number === 2 && n.wire === 2) names.push(text(model, n));
      }
      if (op === "Ceil") ceilOutputs.push(...names);
    } else if (f.number === 12 && f.wire === 2) {
      for (const v of fieldsOf(model, f.valueStart, f.end)) if (v.number === 1 && v.wire === 2) outputs.push(text(model, v));
    }
  }
  if (ceilOutputs.length !== 1) return { model, durationsOutput: null };
  const name = ceilOutputs[0]!;
  if (outputs.includes(name)) return { model, durationsOutput: name };
  const extra = lengthDelimited(12, lengthDelimited(1, Buffer.from(name, "utf8")));
  const graphBody = Buffer.concat([model.subarray(graph.valueStart, graph.end), extra]);
  const patched = Buffer.concat([model.subarray(0, graph.start), lengthDelimited(7, graphBody), model.subarray(graph.end)]);
  return { model: patched, durationsOutput: name };
}

/** The names a node reads, its subgraphs' reads included (an If or Loop body may read the outer graph's tensors). */
function namesRead(buf: Buffer, from: number, to: number, into: string[]): void {
  for (const f of fieldsOf(buf, from, to)) {
    if (f.number === 1 && f.wire === 2) into.push(text(buf, f));
    else if (f.number === 5 && f.wire === 2) {
      // AttributeProto: g (6) one subgraph, graphs (11) several; each GraphProto's nodes (1)
      for (const a of fieldsOf(buf, f.valueStart, f.end)) {
        if ((a.number === 6 || a.number === 11) && a.wire === 2) {
          for (const g of fieldsOf(buf, a.valueStart, a.end)) if (g.number === 1 && g.wire === 2) namesRead(buf, g.valueStart, g.end, into);
        }
      }
    }
  }
}

/**
 * The model cut down to what computes `output` (the durations, "w_ceil"): only the nodes it depends on, the
 * initializers they read, and `output` as the one graph output. For a Piper voice that is its text encoder and
 * duration predictor, working per phoneme, without the flow and the decoder that make the audio (most of the
 * work): what the narration fit times a draft with (decision 258). Graph inputs are kept as they are.
 */
export function durationsOnly(model: Buffer, output: string): Buffer {
  const graph = [...fieldsOf(model)].find((f) => f.number === 7 && f.wire === 2);
  if (!graph) throw new Error("not an ONNX model: it has no graph");
  const fields = [...fieldsOf(model, graph.valueStart, graph.end)];
  type Node = { field: Field; reads: string[]; writes: string[]; keep: boolean };
  const nodes: Node[] = [];
  for (const f of fields) {
    if (f.number !== 1 || f.wire !== 2) continue;
    const reads: string[] = [];
    const writes: string[] = [];
    namesRead(model, f.valueStart, f.end, reads);
    for (const n of fieldsOf(model, f.valueStart, f.end)) if (n.number === 2 && n.wire === 2) writes.push(text(model, n));
    nodes.push({ field: f, reads, writes, keep: false });
  }
  if (!nodes.some((n) => n.writes.includes(output))) throw new Error(`the model has no node computing ${output}`);
  // ONNX nodes are in topological order: walking back from the last keeps every producer of a needed tensor
  const needed = new Set([output]);
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i]!;
      if (node.keep || !node.writes.some((w) => needed.has(w))) continue;
      node.keep = true;
      changed = true;
      for (const r of node.reads) if (r) needed.add(r);
    }
  }
  const nameOf = (f: Field, nameField: number) => {
    for (const n of fieldsOf(model, f.valueStart, f.end)) if (n.number === nameField && n.wire === 2) return text(model, n);
    return "";
  };
  const keptNodes = new Set(nodes.filter((n) => n.keep).map((n) => n.field.start));
  const kept: Buffer[] = [];
  const outputEntry = lengthDelimited(12, lengthDelimited(1, Buffer.from(output, "utf8")));
  for (const f of fields) {
    const bytes = model.subarray(f.start, f.end);
    if (f.number === 1 && f.wire === 2) {
      if (keptNodes.has(f.start)) kept.push(bytes);
    } else if (f.number === 5 && f.wire === 2) {
      // TensorProto.name is field 8
      if (needed.has(nameOf(f, 8))) kept.push(bytes);
    } else if (f.number === 13 && f.wire === 2) {
      if (needed.has(nameOf(f, 1))) kept.push(bytes);
    } else if (f.number !== 12) kept.push(bytes);
  }
  kept.push(outputEntry);
  return Buffer.concat([model.subarray(0, graph.start), lengthDelimited(7, Buffer.concat(kept)), model.subarray(graph.end)]);
}
