/**
 * The e2e stack fixture (test/helpers/stack.ts) cleans up after itself: after the tests of its
 * describe, every stack it made is gone and its emulator closed; a set-up that fails half way
 * still closes what it made; its handles refuse use outside the tests.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { stackFixture, useStack } from "../helpers/stack";

/** Whether anything answers at `url`. */
const answers = (url: string) => fetch(`${url}/v2/topics`).then(() => true, () => false);

describe("useStack", () => {
  const made = { url: "", dirs: [] as string[] };

  describe("a describe with a fixture", () => {
    const { emu, ts, stack } = useStack({ emulator: { mode: "spec" }, program: async () => {}, seed: async (e) => void (await e.api("POST", "/v2/subscribers", { subscriberId: "seeded" })) });

    it("gives its tests the emulator, seeded, and a stack connected to it, and more stacks on request", async () => {
      expect((await emu.state()).subscribers.map((s) => s.subscriberId)).toEqual(["seeded"]);
      expect(await ts.stack.getConfig("notify:apiUrl")).toMatchObject({ value: emu.url });
      const other = await stack({ program: async () => {} });
      expect(await other.stack.getConfig("notify:apiUrl")).toMatchObject({ value: emu.url });
      Object.assign(made, { url: emu.url, dirs: [ts.dir, other.dir] });
      expect(made.dirs.every((d) => existsSync(d))).toBe(true);
    });
  });

  it("after the describe, every stack it made is gone and the emulator closed", async () => {
    expect(made.dirs).toHaveLength(2);
    expect(made.dirs.filter((d) => existsSync(d))).toEqual([]);
    expect(await answers(made.url)).toBe(false);
  });

  it("a set-up that fails half way still closes the emulator it started", async () => {
    let url = "";
    const { fixture, setUp, tearDown } = stackFixture({
      program: async () => {},
      seed: async (e) => {
        url = e.url;
        throw new Error("the seed failed");
      },
    });
    await expect(setUp()).rejects.toThrow("the seed failed");
    expect(await answers(url)).toBe(true);
    await tearDown();
    expect(await answers(url)).toBe(false);
    expect(() => fixture.emu.url).toThrow(/emu of useStack .* exists only inside the tests/);
  });

  it("its handles refuse use outside the tests, naming the fixture", () => {
    const { fixture } = stackFixture();
    expect(() => fixture.emu.url).toThrow(/emu of useStack \(test\/helpers\/stack\.ts\)/);
    expect(() => fixture.ts.stack).toThrow(/ts \(given no program, so never made\) of useStack/);
  });
});
