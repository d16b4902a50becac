/**
 * The bodies a resource's table gives for facts no other component test sends through a resource: a
 * whole-replace update (a workflow's PUT, a layout's translation flag) sends each `keep` field the
 * program leaves out as the service holds it; a map held as `entries` (an environment variable's
 * values) goes as the service's list. Read off the emulator's request log, with the implementation
 * modules from source.
 */
import { describe, expect, it } from "vitest";
import { checked, emulatorPerBlock, impl, type Obj } from "../../../helpers/implementation";

describe("bodies from the field tables", () => {
  const emulator = emulatorPerBlock({ mode: "production" });
  const writes = async () => (await emulator().requests()).filter((r) => r.method !== "GET").map((r) => ({ call: `${r.method} ${r.route}`, body: r.body as Obj }));

  it("a workflow's update sends the optional fields the program leaves out as the service holds them", async () => {
    const workflow = impl("workflow");
    const steps = [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }];
    const first = await checked(workflow, { workflowId: "held", name: "Held", tags: ["ops"], active: true, description: "Kept", steps });
    const { id, outs } = await workflow.create(first);
    await emulator().clearRequests();
    // The program now declares only the required fields and renames the workflow.
    await workflow.update(id, outs, await checked(workflow, { workflowId: "held", name: "Renamed", steps }));
    const put = (await writes()).find((w) => w.call.startsWith("PUT "))!;
    expect(put.body).toMatchObject({ name: "Renamed", tags: ["ops"], active: true, description: "Kept", isTranslationEnabled: false });
    expect(put.body).not.toHaveProperty("workflowId");
  });

  it("an environment variable's values go as the service's list of entries, and a change sends only what differs", async () => {
    const variable = impl("environmentVariable");
    const env = String((await emulator().api("GET", "/v1/environments")).body[0]._id);
    const { id, outs } = await variable.create(await checked(variable, { key: "BASE_URL", values: { [env]: "https://a.example" } }));
    expect((await writes()).map((w) => w.body)).toEqual([{ key: "BASE_URL", values: [{ _environmentId: env, value: "https://a.example" }] }]);
    expect(outs.values).toEqual({ [env]: "https://a.example" });
    await emulator().clearRequests();
    await variable.update(id, outs, await checked(variable, { key: "BASE_URL", values: { [env]: "https://b.example" } }));
    expect((await writes()).map((w) => w.body)).toEqual([{ values: [{ _environmentId: env, value: "https://b.example" }] }]);
  });
});
