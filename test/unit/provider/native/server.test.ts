/** provider/native/server.ts: a diff as the engine's detailed diff, and the outputs a preview shows. */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { describe, expect, it } from "vitest";
import { detailedDiff, previewOutputs } from "../../../../provider/native/server";
import { UNKNOWN } from "../../../../provider/resources/diff";
import { INTEGRATION } from "../../../../provider/resources/integration";
import { WORKFLOW } from "../../../../provider/resources/workflow";

const { Kind } = provproto.PropertyDiff;
const kinds = (m: Map<string, provproto.PropertyDiff>) => Object.fromEntries([...m].map(([p, d]) => [p, [d.getKind(), d.getInputdiff()]]));

describe("detailedDiff", () => {
  it("names each path of the diff with its kind, replacing under a key whose change replaces, against the inputs", () => {
    const diff = {
      changes: true, changed: ["workflowId", "steps"], replaces: ["workflowId"],
      paths: [
        { path: "workflowId", key: "workflowId", kind: "update" as const },
        { path: "steps[1].controlValues.subject", key: "steps", kind: "update" as const },
        { path: "steps[2]", key: "steps", kind: "add" as const },
        { path: "steps[0].stepId", key: "steps", kind: "delete" as const },
      ],
    };
    expect(kinds(detailedDiff(diff))).toEqual({
      workflowId: [Kind.UPDATE_REPLACE, true],
      "steps[1].controlValues.subject": [Kind.UPDATE, true],
      "steps[2]": [Kind.ADD, true],
      "steps[0].stepId": [Kind.DELETE, true],
    });
  });

  it("names each changed key whole when the diff has no paths (the provider's own config)", () => {
    expect(kinds(detailedDiff({ changes: true, changed: ["apiUrl"], replaces: [] }))).toEqual({ apiUrl: [Kind.UPDATE, true] });
  });
});

describe("previewOutputs", () => {
  const steps = [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }];
  const held = [{ ...steps[0], stepId: "inbox", databaseId: "s1", issues: undefined }];
  const declared = { name: "Welcome", workflowId: "welcome", steps };

  it("shows a field the service adds to (a workflow's steps gain their ids) as unknown on create, not as declared", () => {
    const outs = previewOutputs(WORKFLOW, declared);
    expect(outs.steps).toBe(UNKNOWN);
    expect(outs.name).toBe("Welcome");
    expect(outs.databaseId).toBe(UNKNOWN);
  });

  it("keeps such a field's old outputs on an update that leaves it unchanged, and shows it unknown when it changes", () => {
    const olds = { ...declared, name: "Old name", steps: held, databaseId: "w1", declaredKeys: ["name", "workflowId", "steps"] };
    expect(previewOutputs(WORKFLOW, { ...declared, name: "Welcome" }, olds, ["name"]).steps).toEqual(held);
    expect(previewOutputs(WORKFLOW, declared, olds, ["steps"]).steps).toBe(UNKNOWN);
  });

  it("shows the declared values of fields the service holds as given (an integration's name)", () => {
    const outs = previewOutputs(INTEGRATION, { identifier: "sg", name: "SendGrid", providerId: "sendgrid", channel: "email" });
    expect(outs.name).toBe("SendGrid");
  });
});
