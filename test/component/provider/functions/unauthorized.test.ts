/**
 * A refused API key (401) is the one failure whose fix lies outside the program, so its message
 * says where the key comes from (`notify:apiKey`, `NOTIFY_API_KEY`) and how a rotated key reaches
 * refresh and destroy (`--run-program`, or an `up`): here a function's, against the emulator;
 * test/unit/provider/resources/lifecycle.test.ts checks a resource operation's, and
 * test/e2e/keyRotation.test.ts shows the same message through the engine.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotifyApiError } from "../../../../provider/client";
import { UNAUTHORIZED_HINT } from "../../../../provider/config";
import { startTestEmulator, type TestEmulator } from "../../../helpers/emulator";
import * as notify from "../../../../provider";

describe("a 401 names the key's config and the rotation steps", () => {
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
      const err = await notify.getSubscriber({ subscriberId: "alice" }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(notify.NotifyApiError);
      expect((err as NotifyApiError).status).toBe(401);
      // What the hint says: test/unit/provider/resources/lifecycle.test.ts.
      expect((err as Error).message).toContain(UNAUTHORIZED_HINT);
      expect((err as Error).message).not.toContain("not-the-emulator-key");
    });
  });
});
