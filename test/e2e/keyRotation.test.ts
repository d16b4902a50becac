/**
 * A rotated API key, as a user meets it: the stack was created with one key, the service then
 * accepts only a new one, and the stack config holds the new one. The engine keeps the dynamic
 * provider's configuration (the stack config it was given, the key included) in the state and uses
 * it for operations that do not run the program, so `preview --refresh` and `destroy` present the
 * old key and fail with 401; the message names `notify:apiKey`, `NOTIFY_API_KEY` and
 * `--run-program`. With `--run-program` (the Automation API's `runProgram`), refresh and destroy
 * register the provider from the current config and succeed with the new key.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type * as EmulatorModule from "../../emulator";
import { createTestStack, nativeRequire, type TestStack } from "../helpers/pulumi";

const OLD_KEY = "rotation-old-key-0123456789";
const NEW_KEY = "rotation-new-key-0123456789";

describe("a rotated API key reaches refresh and destroy", () => {
  const { startEmulator } = nativeRequire("pulumi-notify/emulator") as typeof EmulatorModule;
  let ts: TestStack | undefined;
  let emu: EmulatorModule.RunningEmulator | undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), "notify-rotation-"));
  afterEach(async () => {
    await emu?.close();
    await ts?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("fails naming notify:apiKey and --run-program with the stored key, and succeeds with --run-program", async () => {
    const statePath = path.join(dir, "service.json");
    // The same environment (`dev`) before and after the rotation; the service's objects persist in statePath.
    emu = await startEmulator({ apiKeys: [`${OLD_KEY}=dev`], statePath });
    const port = Number(new URL(emu.url).port);
    ts = await createTestStack({
      program: async () => {
        const notify = nativeRequire("pulumi-notify") as typeof import("../../provider");
        new notify.Topic("releases", { key: "releases", name: "Releases" });
      },
      config: { "notify:apiUrl": { value: emu.url }, "notify:apiKey": { value: OLD_KEY, secret: true } },
    });
    expect((await ts.stack.up()).summary.result).toBe("succeeded");

    await emu.close();
    emu = await startEmulator({ apiKeys: [`${NEW_KEY}=dev`], statePath, port });
    await ts.stack.setConfig("notify:apiKey", { value: NEW_KEY, secret: true });

    const refused = [/401/, /notify:apiKey/, /NOTIFY_API_KEY/, /--run-program/];
    const previewError = await ts.stack.preview({ refresh: true }).then(() => undefined, (e: unknown) => String(e));
    for (const re of refused) expect(previewError).toMatch(re);
    const destroyError = await ts.stack.destroy().then(() => undefined, (e: unknown) => String(e));
    for (const re of refused) expect(destroyError).toMatch(re);

    const refresh = await ts.stack.refresh({ runProgram: true });
    expect(refresh.summary.result).toBe("succeeded");
    const destroy = await ts.stack.destroy({ runProgram: true });
    expect(destroy.summary.result).toBe("succeeded");
    const state = await fetch(`${emu.url}/__emulator/state`, { headers: { authorization: `ApiKey ${NEW_KEY}` } }).then((r) => r.json()) as { topics: unknown[] };
    expect(state.topics).toEqual([]);
  }, 300_000);
});
