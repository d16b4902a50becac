/**
 * The native plugin's Struct codec (provider/native/struct.ts) against google-protobuf's own: the
 * same bytes written, the same values read (key order included), the same refusal of a value a
 * Struct cannot hold, through the engine's real request and response messages. Both run in this
 * file's process (vitest gives each test file a process of its own, and nothing else here loads
 * the plugin's server, which installs the codec): google-protobuf's first, then with the codec
 * installed.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { installStructCodec } from "../../../../provider/native/struct";

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "hush" };

/** Property maps as the engine sends them: JSON values, unicode and empty keys, secrets, numbers of every kind. */
function samples(): Record<string, unknown>[] {
  const generated = fc.sample(fc.dictionary(fc.string({ unit: "binary-ascii" }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 12 }), { seed: 20261123, numRuns: 300 });
  return [
    {},
    { "": "", a: null, b: [], c: {}, d: [[], [{}], [null, 1, "x", true]], "é": "ü", "日本": { "😀": 1 } },
    { z: 1, a: 2, A: 3, _: 4, "10": 5, "9": 6, credentials: SECRET, nested: { list: [SECRET, { k: SECRET }] } },
    { n: [0, 1.5, -2, 1e300, -1e-300, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2] },
    { steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hello" } }], declaredKeys: ["steps", "name"], active: false },
    ...generated,
  ];
}

type Json = Record<string, unknown>;

/** What google-protobuf (or the codec, once installed) writes and reads of `obj`. */
function google(obj: Json): { bytes: string; wire: string; back: string } {
  const bytes = Buffer.from(Struct.fromJavaScript(obj as never).serializeBinary()).toString("base64");
  const read = new provproto.ReadRequest();
  read.setId("x");
  read.setProperties(Struct.fromJavaScript(obj as never));
  const wire = Buffer.from(read.serializeBinary()).toString("base64");
  const back = provproto.ReadRequest.deserializeBinary(read.serializeBinary()).getProperties()!.toJavaScript();
  return { bytes, wire, back: JSON.stringify(back) };
}

const refusal = (f: () => unknown): string => {
  try {
    f();
    return "accepted";
  } catch (e) {
    return (e as Error).message;
  }
};

/** Every sample through google-protobuf, then through the codec; what differs. */
function run(samples: Json[]): { mismatches: string[]; checked: number } {
  const bad: Json[] = [{ a: undefined }, { a: [undefined] }, { a: () => 1 }];
  const before = samples.map(google);
  const refusedBefore = bad.map((b) => refusal(() => Struct.fromJavaScript(b as never).serializeBinary()));
  installStructCodec();
  const mismatches: string[] = [];
  samples.forEach((obj, i) => {
    const after = google(obj);
    for (const k of ["bytes", "wire", "back"] as const) if (after[k] !== before[i]![k]) mismatches.push(`${i} ${k}: ${JSON.stringify(obj).slice(0, 200)}`);
    // Bytes google-protobuf wrote, read by the codec; a second toJavaScript is a new copy.
    const msg = provproto.ReadRequest.deserializeBinary(Buffer.from(before[i]!.wire, "base64"));
    const first = msg.getProperties()!.toJavaScript(), second = msg.getProperties()!.toJavaScript();
    if (JSON.stringify(first) !== before[i]!.back || JSON.stringify(second) !== before[i]!.back) mismatches.push(`${i} read: ${JSON.stringify(obj).slice(0, 200)}`);
    if (Object.keys(first).length && first === second) mismatches.push(`${i} same object twice`);
  });
  const refusedAfter = bad.map((b) => refusal(() => Struct.fromJavaScript(b as never).serializeBinary()));
  if (JSON.stringify(refusedAfter) !== JSON.stringify(refusedBefore)) mismatches.push(`refusals ${JSON.stringify(refusedBefore)} vs ${JSON.stringify(refusedAfter)}`);
  // -0 keeps its sign both ways.
  const z = Struct.deserializeBinary(Struct.fromJavaScript({ z: -0 }).serializeBinary()).toJavaScript().z;
  if (!Object.is(z, -0)) mismatches.push(`-0 read as ${String(z)}`);
  return { mismatches, checked: samples.length };
}

describe("the native plugin's Struct codec", () => {
  it("writes the bytes google-protobuf writes and reads what it reads, for every sample", () => {
    // A round trip through JSON, as the samples reached the engine's messages before.
    const all = JSON.parse(JSON.stringify(samples())) as Json[];
    const out = run(all);
    expect(out.checked).toBe(all.length);
    expect(out.mismatches).toEqual([]);
  });
});
