/** provider/native/server.ts: a diff as the engine's detailed diff. */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { describe, expect, it } from "vitest";
import { detailedDiff } from "../../../../provider/native/server";

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
