/** provider/native/properties.ts: property maps between the engine's structs (secrets marked) and plain maps. */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { fromStruct, SECRET_SIG, SIG_KEY, toStruct, unwrapSecrets } from "../../../../provider/native/properties";
import { UNKNOWN } from "../../../../provider/resources/diff";

const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

describe("unwrapSecrets", () => {
  it("takes the markers off at any depth and says whether there was one", () => {
    expect(unwrapSecrets(secret("k"))).toEqual({ value: "k", secret: true });
    expect(unwrapSecrets({ a: [1, secret({ b: secret(2) })], c: "x" })).toEqual({ value: { a: [1, { b: 2 }], c: "x" }, secret: true });
    expect(unwrapSecrets({ a: [1, { b: 2 }] })).toEqual({ value: { a: [1, { b: 2 }] }, secret: false });
    expect(unwrapSecrets(null)).toEqual({ value: null, secret: false });
  });

  it("leaves another special object (not a secret) as it is", () => {
    const asset = { [SIG_KEY]: "c44067f5952c0a294b673a41bacd8c17", path: "x" };
    expect(unwrapSecrets(asset)).toEqual({ value: asset, secret: false });
  });
});

describe("fromStruct", () => {
  it("gives the plain map and the top-level keys that held a secret anywhere below", () => {
    const s = Struct.fromJavaScript({ apiKey: secret("k"), credentials: { token: secret("t"), from: "a" }, name: "n", id: UNKNOWN } as never);
    const { props, secrets } = fromStruct(s);
    expect(props).toEqual({ apiKey: "k", credentials: { token: "t", from: "a" }, name: "n", id: UNKNOWN });
    expect([...secrets].sort()).toEqual(["apiKey", "credentials"]);
  });

  it("reads an absent struct as an empty map", () => {
    expect(fromStruct(undefined)).toEqual({ props: {}, secrets: new Set() });
  });
});

describe("toStruct", () => {
  it("drops undefined values, marks the given keys secret when present, and round-trips through fromStruct", () => {
    const props = { a: "x", b: { c: 1 }, d: undefined, e: [true] };
    const s = toStruct(props, ["b", "d", "missing"]);
    expect(s.toJavaScript()).toEqual({ a: "x", b: secret({ c: 1 }), e: [true] });
    const back = fromStruct(s);
    expect(back.props).toEqual({ a: "x", b: { c: 1 }, e: [true] });
    expect([...back.secrets]).toEqual(["b"]);
  });
});
