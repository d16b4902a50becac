/**
 * A refused API key (401) is the one failure whose fix lies outside the program, so its message
 * says where the key comes from (`notify:apiKey`, `NOTIFY_API_KEY`) and how a rotated key reaches
 * refresh and destroy (`--run-program`, or an `up`). test/e2e/keyRotation.test.ts shows the same
 * message through the engine.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotifyApiError } from "../../provider/client";
import { failure } from "../../provider/resources/lifecycle";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { loadPackage } from "../helpers/pulumi";

const apiError = (status: number) => new NotifyApiError({ status, method: "GET", path: "/v1/integrations", serviceMessage: "refused", attempts: 1 });
const HINT = [/notify:apiKey/, /NOTIFY_API_KEY/, /--run-program/, /pulumi destroy/];

describe("a 401 names the key's config and the rotation steps", () => {
  it("a resource operation's 401 carries the hint", () => {
    const message = failure("read integration", apiError(401)).message;
    expect(message).toMatch(/^Unable to read integration: 401 Unauthorized: refused\. /);
    for (const re of HINT) expect(message).toMatch(re);
  });

  it("other failures do not", () => {
    expect(failure("read integration", apiError(403)).message).not.toMatch(/notify:apiKey/);
    expect(failure("read integration", apiError(404)).message).not.toMatch(/notify:apiKey/);
  });

  describe("a function called with a key the service refuses", () => {
    let emu: TestEmulator;
    let restore: () => void;
    beforeAll(async () => {
      emu = await startTestEmulator();
      restore = emu.connectEnvironment();
      process.env.NOTIFY_API_KEY = "not-the-emulator-key";
    });
    afterAll(async () => {
      restore();
      await emu.close();
    });

    it("rejects with the service's 401, its class kept, and the hint", async () => {
      // The compiled package, as a program loads it (its client is required at first use).
      const notify = loadPackage();
      const err = await notify.getSubscriber({ subscriberId: "alice" }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(notify.NotifyApiError);
      expect((err as NotifyApiError).status).toBe(401);
      for (const re of HINT) expect((err as Error).message).toMatch(re);
      expect((err as Error).message).not.toContain("not-the-emulator-key");
    });
  });
});
