/** The oracle's hand edits (test/property/handEdits.ts) know every resource of RESOURCE_TABLES. */
import { describe, expect, it } from "vitest";
import { RESOURCE_TABLES } from "../../../provider/resources/index";
import { deletion, fieldEdits } from "../../property/handEdits";

describe("hand edits", () => {
  it.each(RESOURCE_TABLES.map((t) => t.name))("%s: field edits and a deletion exist", (kind) => {
    const r = { name: "r", kind, inputs: { credentials: {} } };
    expect(() => fieldEdits(r, "spec")).not.toThrow();
    expect(deletion(r).description).toBe("r deleted");
  });

  it("refuses a kind it does not know, rather than editing nothing", () => {
    expect(() => fieldEdits({ name: "r", kind: "Unknown", inputs: {} }, "spec")).toThrow(/no hand edits for resource kind Unknown/);
    expect(() => deletion({ name: "r", kind: "Unknown", inputs: {} })).toThrow(/no hand deletion for resource kind Unknown/);
  });
});
