/**
 * The plugin binary's build (scripts/plugin-binary.ts): postject's harmless warnings about the
 * names of the note sections it writes are left out, and every other line it prints still shows.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { shownPostjectLine, withoutHarmlessWarnings } from "../../../scripts/plugin-binary";

/** The lines postject 1.0.0-alpha.6 prints injecting a blob into a Linux Node binary, nine a target. */
const HARMLESS = ["warning: Can't find string offset for section name '.note.100'", "warning: Can't find string offset for section name '.note'"];
/** Lines that say something else, which must show. */
const OTHERS = [
  "warning: Can't find string offset for section name '.text'",
  "warning: Can't find string offset for section name '.note.100' (and more)",
  "error: Can't find string offset for section name '.note.100'",
  "Error when injecting resource",
];

afterEach(() => { vi.restoreAllMocks(); });

describe("postject's output", () => {
  it("leaves out only the warnings about the note sections' names", () => {
    expect(HARMLESS.filter(shownPostjectLine)).toEqual([]);
    expect(OTHERS.filter(shownPostjectLine)).toEqual(OTHERS);
  });

  it("passes every other console.warn call on while an injection runs, and puts console.warn back", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = await withoutHarmlessWarnings(async () => {
      for (const line of [...HARMLESS, ...OTHERS, ...HARMLESS]) console.warn(line);
      console.warn(HARMLESS[0], "with a second argument");
      return "injected";
    });
    expect(result).toBe("injected");
    expect(warn.mock.calls).toEqual([...OTHERS.map((l) => [l]), [HARMLESS[0], "with a second argument"]]);
    expect(console.warn).toBe(warn);
  });

  it("puts console.warn back when the injection fails", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await expect(withoutHarmlessWarnings(async () => { throw new Error("Error when injecting resource"); })).rejects.toThrow("Error when injecting resource");
    expect(console.warn).toBe(warn);
    console.warn(HARMLESS[0]);
    expect(warn.mock.calls).toEqual([[HARMLESS[0]]]);
  });
});
