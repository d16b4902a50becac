/**
 * A faster codec of `google.protobuf.Struct` for the native plugin, installed into google-protobuf
 * by {@link installStructCodec}. Every property map the engine and the plugin exchange is a Struct
 * (a Read's state and inputs, a Check's olds and news, a Diff's olds and news, and what each
 * answers), and google-protobuf turns each into a tree of Value, Struct, ListValue and map-entry
 * messages before `toJavaScript()` walks that tree again (and `fromJavaScript()` plus
 * serialization the same way back): most of the plugin's time per resource, and most of its
 * garbage. This codec reads the wire format straight into plain values and writes plain values
 * straight to it, with the same results: `toJavaScript()` gives a new object with keys in sorted
 * order, as google-protobuf's does; the bytes written are the same (map entries in sorted key
 * order); `fromJavaScript()` throws the same error for a value a Struct cannot hold. A Struct built
 * or read any other way (setters, `getFieldsMap()`) still uses google-protobuf's own code.
 */
import { BinaryReader, BinaryWriter } from "google-protobuf";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

type Obj = Record<string, unknown>;

/** The plain value a Struct read by this codec holds. */
const PLAIN = Symbol("notify.struct.plain");
/** The encoded body of a Struct made by this codec's `fromJavaScript`. */
const BYTES = Symbol("notify.struct.bytes");

/** Whether the object read was handed to a caller of `toJavaScript()`. */
const HANDED = Symbol("notify.struct.handed");

interface Marked {
  [PLAIN]?: Obj;
  [HANDED]?: boolean;
  [BYTES]?: Uint8Array;
}

// --- Reading ---------------------------------------------------------------------------------

/** A Value being read: `set` once one of its kinds was (a Value with none is an error, as in google-protobuf). */
interface ValueSlot {
  v: unknown;
  set: boolean;
}

function readValue(slot: ValueSlot, reader: BinaryReader): void {
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    switch (reader.getFieldNumber()) {
      case 1: reader.readEnum(); slot.v = null; slot.set = true; break;
      case 2: slot.v = reader.readDouble(); slot.set = true; break;
      case 3: slot.v = reader.readString(); slot.set = true; break;
      case 4: slot.v = reader.readBool(); slot.set = true; break;
      case 5: { const entries: [string, unknown][] = []; reader.readMessage(entries, readStructEntries); slot.v = toObject(entries); slot.set = true; break; }
      case 6: { const items: unknown[] = []; reader.readMessage(items, readList); slot.v = items; slot.set = true; break; }
      default: reader.skipField();
    }
  }
}

function valueOf(slot: ValueSlot): unknown {
  if (!slot.set) throw new Error("Unexpected struct type");
  return slot.v;
}

function readList(items: unknown[], reader: BinaryReader): void {
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    if (reader.getFieldNumber() === 1) {
      const slot: ValueSlot = { v: undefined, set: false };
      reader.readMessage(slot, readValue);
      items.push(valueOf(slot));
    } else {
      reader.skipField();
    }
  }
}

/** One map entry: key (1) and value (2); a missing key is "", a missing value an error. */
function readEntry(entry: { key: string; slot: ValueSlot }, reader: BinaryReader): void {
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    switch (reader.getFieldNumber()) {
      case 1: entry.key = reader.readString(); break;
      case 2: reader.readMessage(entry.slot, readValue); break;
      default: reader.skipField();
    }
  }
}

function readStructEntries(entries: [string, unknown][], reader: BinaryReader): void {
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    if (reader.getFieldNumber() === 1) {
      const entry = { key: "", slot: { v: undefined, set: false } as ValueSlot };
      reader.readMessage(entry, readEntry);
      entries.push([entry.key, valueOf(entry.slot)]);
    } else {
      reader.skipField();
    }
  }
}

/** The object of a Struct's entries, keys in sorted order and the last of a repeated key winning, as google-protobuf's map gives them. */
function toObject(entries: [string, unknown][]): Obj {
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Obj = {};
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/** Reads a Struct's fields with `reader` (positioned inside the Struct's message). */
function readStruct(reader: BinaryReader): Obj {
  const entries: [string, unknown][] = [];
  readStructEntries(entries, reader);
  return toObject(entries);
}

// --- Writing ---------------------------------------------------------------------------------

function writeValue(holder: { v: unknown }, writer: BinaryWriter): void {
  const v = holder.v;
  switch (typeof v) {
    case "string": writer.writeString(3, v); return;
    case "number": writer.writeDouble(2, v); return;
    case "boolean": writer.writeBool(4, v); return;
    case "object":
      if (v === null) writer.writeEnum(1, 0);
      else if (Array.isArray(v)) writer.writeMessage(6, v, writeList);
      else writer.writeMessage(5, v as Obj, writeStructBody);
      return;
    default:
      throw new Error("Unexpected struct type.");
  }
}

function writeList(items: unknown[], writer: BinaryWriter): void {
  for (const v of items) writer.writeMessage(1, { v }, writeValue);
}

function writeEntry(entry: { k: string; v: unknown }, writer: BinaryWriter): void {
  writer.writeString(1, entry.k);
  writer.writeMessage(2, { v: entry.v }, writeValue);
}

/**
 * A Struct's fields: one map entry per enumerable key (inherited ones too, as `for...in` and
 * google-protobuf), in sorted order. A key `__proto__` is left out, as google-protobuf's map (a
 * plain object) loses it.
 */
function writeStructBody(obj: Obj, writer: BinaryWriter): void {
  const keys: string[] = [];
  for (const k in obj) if (k !== "__proto__") keys.push(k);
  keys.sort();
  for (const k of keys) writer.writeMessage(1, { k, v: obj[k] }, writeEntry);
}

// --- Installing ------------------------------------------------------------------------------

let installed = false;

/** Makes google-protobuf's Struct (the one the engine's protocol stubs use) read and write through this codec. */
export function installStructCodec(): void {
  if (installed) return;
  installed = true;
  const S = Struct as unknown as {
    deserializeBinaryFromReader(msg: Struct, reader: BinaryReader): Struct;
    serializeBinaryToWriter(msg: Struct, writer: BinaryWriter): void;
    fromJavaScript(obj: Obj): Struct;
  };
  const googleSerialize = S.serializeBinaryToWriter;
  const googleToJavaScript = Struct.prototype.toJavaScript as (this: Struct) => Obj;

  S.deserializeBinaryFromReader = (msg, reader) => {
    (msg as Marked)[PLAIN] = readStruct(reader);
    return msg;
  };
  S.fromJavaScript = (obj) => {
    const writer = new BinaryWriter();
    writeStructBody(obj, writer);
    const msg = new Struct();
    (msg as Marked)[BYTES] = writer.getResultBuffer();
    return msg;
  };
  S.serializeBinaryToWriter = (msg, writer) => {
    const m = msg as Marked;
    if (m[BYTES]) writer.writeSerializedMessage(m[BYTES], 0, m[BYTES].length);
    else if (m[PLAIN]) writeStructBody(m[PLAIN], writer);
    else googleSerialize(msg, writer);
  };
  (Struct.prototype as unknown as { toJavaScript(this: Struct): Obj }).toJavaScript = function (this: Struct) {
    const m = this as Marked;
    // The object read goes to the first caller (the plugin reads each request's maps once, and
    // copies rather than changes them); a later call gets a new copy, as google-protobuf's does.
    if (m[PLAIN]) {
      if (!m[HANDED]) {
        m[HANDED] = true;
        return m[PLAIN];
      }
      return readStruct(new BinaryReader(encode(m[PLAIN])));
    }
    if (m[BYTES]) return readStruct(new BinaryReader(m[BYTES]));
    return googleToJavaScript.call(this);
  };
}

function encode(obj: Obj): Uint8Array {
  const writer = new BinaryWriter();
  writeStructBody(obj, writer);
  return writer.getResultBuffer();
}
