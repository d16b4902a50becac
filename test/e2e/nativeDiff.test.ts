/**
 * The native plugin's detailed diff names what changed and nothing else, under the real engine:
 * the case a new user reported. A workflow made in the dashboard is declared as `notify-export`
 * writes it (every field the service holds, each step with its `stepId`) and taken over with the
 * `import` option, which writes nothing; one email subject is then edited by hand, and
 * `preview --refresh --diff` must show that subject and no step's `stepId`. It used to list
 * `+ stepId` on every step: the import's read cannot know the program declares the step ids, so
 * the refreshed inputs lack them, and the plugin named `steps` whole, which the engine shows as
 * every difference between the old and new inputs of `steps`.
 */
import { describe, expect, it } from "vitest";
import { declare, detailedDiffs } from "../helpers/native";
import { API_KEY, type TestEmulator } from "../helpers/emulator";
import { useStack } from "../helpers/stack";
import { editWorkflowByHand, serviceApi } from "../../scripts/workspace";
import { toWorkflowOutputs, WORKFLOW } from "../../provider/resources/workflow";
import { isPlainObject } from "../../provider/resources/diff";

describe("the native plugin's detailed diff after a hand edit of one field of an imported workflow", () => {
  // The workflow's id and its inputs, read off the service by the seed.
  let importId = "";
  let inputs: Record<string, unknown> = {};

  const seed = async (emu: TestEmulator) => {
    const api = serviceApi(emu.url, API_KEY);
    await api("POST", "/v2/workflows", {
      workflowId: "welcome", name: "Welcome", source: "EXTERNAL",
      steps: [
        { name: "Inbox", type: "in_app", controlValues: { body: "Hi {{subscriber.firstName}}" } },
        { name: "Email", type: "email", controlValues: { subject: "Hello", body: "<p>Hi</p>", editorType: "html" } },
      ],
    });
    // As notify-export declares it: each input the service holds, a preferences block it holds none of left out, each step with its stepId.
    const live = await api("GET", "/v2/workflows/welcome");
    const outs = toWorkflowOutputs(live);
    importId = live._id;
    inputs = Object.fromEntries(WORKFLOW.inputKeys.filter((k) => outs[k] !== undefined).map((k) => [k, outs[k]]));
    if (isPlainObject(inputs.preferences)) inputs.preferences = Object.fromEntries(Object.entries(inputs.preferences).filter(([, v]) => v !== null));
    inputs.steps = (outs.steps as Record<string, unknown>[]).map((s) => ({ name: s.name, type: s.type, stepId: s.stepId, controlValues: s.controlValues }));
  };
  const { emu, ts } = useStack({ seed, program: async () => { declare("Workflow", "welcome", inputs, { import: importId }); }, frontEnd: "native" });

  it("takes the workflow over without a write", async () => {
    await emu.clearRequests();
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, import: 1 });
    expect((await emu.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator"))).toEqual([]);
  });

  it("shows the edited subject on preview --refresh --diff, and no step id", async () => {
    await editWorkflowByHand(serviceApi(emu.url, API_KEY), "welcome", (body) => ({
      ...body,
      steps: body.steps.map((s: { type: string; controlValues: object }) => (s.type === "email" ? { ...s, controlValues: { ...s.controlValues, subject: "Edited by hand" } } : s)),
    }));
    const { res, diffs } = await detailedDiffs(ts.stack, { refresh: true, diff: true });
    expect(diffs).toEqual({ welcome: { op: "update", detailed: { "steps[1].controlValues.subject": "update" } } });
    // The update's part of the output (the refresh's part before it shows the service's object whole).
    const update = res.stdout.slice(res.stdout.indexOf("notify:index:Workflow: (update)"), res.stdout.indexOf("Resources:"));
    expect(update).toMatch(/~ subject\s*: "Edited by hand" => "Hello"/);
    expect(update).not.toContain("stepId");
  });

  it("puts the subject back with up --refresh, and then nothing differs", async () => {
    await ts.stack.up({ refresh: true });
    expect((await serviceApi(emu.url, API_KEY)("GET", "/v2/workflows/welcome")).steps[1].controlValues.subject).toBe("Hello");
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });
});
