/**
 * EnvironmentVariable's `value`: the value of the API key's own environment, declared without its
 * id (what a portable program declares, `notify-export --portable`). Written, read, compared and
 * removed as `values` under that id would be; refused beside a `values` entry of the same
 * environment; a variable holding another environment's value stays after a delete.
 */
import { describe, expect, it } from "vitest";
import { checked, emulatorPerBlock, impl, type Obj } from "../../../helpers/implementation";

describe("an environment variable's value in the API key's environment", () => {
  const emulator = emulatorPerBlock({ mode: "production" });
  const p = impl("environmentVariable");
  const own = async () => (await emulator().api("GET", "/v1/environments/me")).body._id as string;
  const held = async (key: string) => (await emulator().api("GET", `/v1/environment-variables/${key}`)).body;

  it("is written under the key's environment, read back as value, and a hand edit shows as a change of value", async () => {
    const env = await own();
    const inputs = await checked(p, { key: "BASE_URL", value: "https://a.example" });
    const { id, outs } = await p.create(inputs);
    expect((await held("BASE_URL")).values).toEqual([{ _environmentId: env, value: "https://a.example" }]);
    expect(outs).toMatchObject({ key: "BASE_URL", value: "https://a.example" });
    const read = await p.read(id, outs);
    expect(read.inputs).toMatchObject({ key: "BASE_URL", value: "https://a.example" });
    expect((await p.diff(id, read.props, inputs)).changed).toEqual([]);
    await emulator().api("PATCH", "/v1/environment-variables/BASE_URL", { values: [{ _environmentId: env, value: "https://edited.example" }] });
    const drifted = await p.read(id, outs);
    expect(drifted.inputs).toMatchObject({ value: "https://edited.example" });
    expect((await p.diff(id, drifted.props, inputs)).changed).toEqual(["value"]);
    const { outs: repaired } = await p.update(id, drifted.props, inputs);
    expect(repaired).toMatchObject({ value: "https://a.example" });
    expect((await held("BASE_URL")).values).toEqual([{ _environmentId: env, value: "https://a.example" }]);
    await p.delete(id, repaired);
    expect((await emulator().api("GET", "/v1/environment-variables/BASE_URL")).status).toBe(404);
  });

  it("is refused beside values by the check, before any request, naming both", async () => {
    const env = await own();
    await emulator().clearRequests();
    const r = await p.check({}, { key: "TWICE", value: "a", values: { [env]: "b" } });
    expect(r.failures).toEqual([{ property: "value", reason: "value: give the API key's environment's value either as value or under its id in values, not both (an API key writes no other environment's value)" }]);
    expect(await emulator().operationRequests()).toEqual([]);
  });

  it("leaves on delete a variable that holds another environment's value", async () => {
    const inputs = await checked(p, { key: "SHARED", value: "mine" });
    const { id, outs } = await p.create(inputs);
    // Another environment's value, set by its own stack or in the dashboard.
    const production = (await emulator().api("GET", "/v1/environments")).body.find((e: Obj) => e.name === "Production") as { _id: string; apiKeys: { key: string }[] };
    const other = production._id;
    // With that environment's key: a key writes only its own environment's value.
    const set = await emulator().apiAs(production.apiKeys[0]!.key, "PATCH", "/v1/environment-variables/SHARED", { values: [{ _environmentId: other, value: "theirs" }] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await p.delete(id, outs);
    expect((await held("SHARED")).values).toContainEqual({ _environmentId: other, value: "theirs" });
  });
});
