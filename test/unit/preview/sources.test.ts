/**
 * What `notify-preview` reads (preview/sources.ts): the workflows of each file Pulumi writes (a
 * stack export, a `pulumi preview --json` output, an event log). The bin's refusals of bad input
 * are test/component/preview/cli.test.ts.
 */
import { describe, expect, it } from "vitest";
import { readChangeSource, workflowsOfState } from "../../../preview/sources";

const steps = [{ name: "Email", stepId: "email", type: "email", controlValues: { subject: "S", body: "B" } }];
const dynamic = (inputs: object) => ({ type: "pulumi-nodejs:dynamic/notify:Workflow", inputs: { __provider: "exports.handler = ...", ...inputs } });
const native = (inputs: object) => ({ type: "notify:index:Workflow", inputs });

describe("the files notify-preview reads", () => {
  it("finds the workflows of a stack export with either front end, and nothing else", () => {
    const state = { version: 3, deployment: { resources: [
      { type: "pulumi:pulumi:Stack", inputs: {} }, dynamic({ workflowId: "a", steps }), native({ workflowId: "b", steps: [] }),
      { type: "pulumi-nodejs:dynamic/notify:Layout", inputs: { layoutId: "l" } },
    ] } };
    expect(workflowsOfState(state)).toEqual([{ workflowId: "a", steps }, { workflowId: "b", steps: [] }]);
    expect(readChangeSource(JSON.stringify(state))).toEqual({ kind: "state", workflows: workflowsOfState(state) });
  });

  // `pulumi preview --json`: {steps: [{op, urn, oldState?, newState?}]}, each state a resource with
  // its type and inputs; unchanged resources are "same" steps.
  it("finds the workflows a `pulumi preview --json` output changes: the new steps, none for a delete", () => {
    const changed = [{ ...steps[0]!, controlValues: { subject: "T", body: "B" } }];
    const preview = { steps: [
      { op: "same", oldState: dynamic({ workflowId: "same", steps }), newState: dynamic({ workflowId: "same", steps }) },
      { op: "update", oldState: dynamic({ workflowId: "upd", steps }), newState: dynamic({ workflowId: "upd", steps: changed }) },
      { op: "create", newState: native({ workflowId: "new", steps }) },
      { op: "delete", oldState: native({ workflowId: "gone", steps }) },
    ] };
    expect(readChangeSource(JSON.stringify(preview))).toEqual({
      kind: "plan", workflows: [{ workflowId: "upd", steps: changed }, { workflowId: "new", steps }, { workflowId: "gone" }],
    });
  });

  it("finds the workflows an event log's resource pre-events change", () => {
    const lines = [
      { sequence: 1, timestamp: 1, preludeEvent: { config: {} } },
      { sequence: 2, timestamp: 1, resourcePreEvent: { metadata: { op: "update", urn: "u", type: "notify:index:Workflow", old: { inputs: { workflowId: "w", steps } }, new: { inputs: { workflowId: "w", steps: [] } } } } },
    ].map((l) => JSON.stringify(l)).join("\n");
    expect(readChangeSource(lines)).toEqual({ kind: "plan", workflows: [{ workflowId: "w", steps: [] }] });
  });

  it("refuses a file that is none of them, naming the three it reads", () => {
    expect(() => readChangeSource("hello")).toThrow("not a `pulumi stack export` file, a `pulumi preview --json` output or a `pulumi preview --event-log` file");
  });
});
