/** The oracle's hand edits (test/property/handEdits.ts) know every registered kind (test/kinds). */
import { describe, expect, it } from "vitest";
import { KINDS } from "../../kinds/index";
import { deletion, fieldEdits } from "../../property/handEdits";

describe("hand edits", () => {
  it.each(KINDS.map((k) => k.kind))("%s: field edits and a deletion exist", (kind) => {
    const r = { name: "r", kind, inputs: { credentials: {} } };
    expect(() => fieldEdits(r, "spec")).not.toThrow();
    expect(deletion(r).description).toBe("r deleted");
  });

  it("refuses a kind it does not know, rather than editing nothing", () => {
    expect(() => fieldEdits({ name: "r", kind: "Unknown", inputs: {} }, "spec")).toThrow(/no descriptor for resource kind Unknown/);
    expect(() => deletion({ name: "r", kind: "Unknown", inputs: {} })).toThrow(/no descriptor for resource kind Unknown/);
  });
});
