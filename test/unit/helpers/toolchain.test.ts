/** test/helpers/toolchain.ts: a missing toolchain skips a file, except with CI=true, where it fails it. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { runs, toolchain } from "../../helpers/toolchain";

describe("toolchain", () => {
  afterEach(() => { vi.unstubAllEnvs(); vi.restoreAllMocks(); });

  it("tells whether a command runs", () => {
    expect(runs(process.execPath, ["-e", "0"])).toBe(true);
    expect(runs("no-such-command-anywhere", [])).toBe(false);
  });

  it("with the toolchain there, the file runs", () => {
    vi.stubEnv("CI", "true");
    expect(toolchain("f.test.ts", true, "x is missing")).toBe(true);
  });

  it("without it, the file skips and says so", () => {
    vi.stubEnv("CI", "");
    const note = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(toolchain("f.test.ts", false, "x is missing")).toBe(false);
    expect(note).toHaveBeenCalledWith("f.test.ts: skipped, x is missing\n");
  });

  it("without it and with CI=true, the file fails", () => {
    vi.stubEnv("CI", "true");
    expect(() => toolchain("f.test.ts", false, "x is missing")).toThrow("f.test.ts: x is missing, and CI=true requires it");
  });
});
