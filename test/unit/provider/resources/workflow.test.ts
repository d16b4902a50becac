/**
 * A misspelt key in a step's `controlValues` is refused naming the closest control of that step
 * kind ("did you mean"), as a misspelt credential key is; the allowed controls come from the
 * step kind's own control schema (`StepControlValues`), so each kind suggests its own.
 */
import { describe, expect, it } from "vitest";
import { allowedKeysAt, checkWith } from "../../../../provider/resources/check";
import { WORKFLOW } from "../../../../provider/resources/workflow";
import { StepControlValues } from "../../../../provider/schemas/workflow";

const workflow = (step: Record<string, unknown>) => ({ workflowId: "wf", name: "Wf", steps: [step] });
const reasons = (step: Record<string, unknown>) => checkWith(WORKFLOW.schema, workflow(step)).map((f) => f.reason);

describe("controlValues: a misspelt key gets a suggestion from its step kind", () => {
  it.each([
    ["email", { subjet: "Hi", body: "b" }, "subjet", "subject"],
    ["chat", { body: "b", editortype: "text" }, "editortype", "editorType"],
    ["http_request", { method: "GET", url: "https://example.com", contineOnFailure: true }, "contineOnFailure", "continueOnFailure"],
    ["delay", { type: "regular", amount: 1, unit: "hours", amout: 2 }, "amout", "amount"],
  ])("%s step", (type, controlValues, wrong, right) => {
    const found = reasons({ name: "S", type, controlValues });
    expect(found).toContainEqual(expect.stringMatching(new RegExp(`^steps\\[0\\]\\.controlValues: unknown property "${wrong}": did you mean "${right}"\\? Allowed: `)));
  });

  it("lists the step kind's allowed controls", () => {
    const [reason] = reasons({ name: "S", type: "sms", controlValues: { bdy: "x" } });
    expect(reason).toMatch(/did you mean "body"\? Allowed: skip, body$/);
  });

  it("a key far from every control gets no suggestion, only the allowed list", () => {
    const [reason] = reasons({ name: "S", type: "push", controlValues: { subject: "s", body: "b", zzzzzzzz: 1 } });
    expect(reason).toMatch(/unknown property "zzzzzzzz" Allowed: /);
    expect(reason).not.toMatch(/did you mean/);
  });

  it("allowedKeysAt reads an object schema's keys through optional and array wrappers", () => {
    expect(allowedKeysAt(StepControlValues.chat!, [])).toEqual(["skip", "body", "editorType"]);
    expect(allowedKeysAt(StepControlValues.chat!, ["body"])).toBeUndefined();
  });
});
