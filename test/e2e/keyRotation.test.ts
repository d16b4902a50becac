/**
 * A rotated API key, as a user meets it: the stack was created with one key, then the service
 * accepts only a new one (rotated while the emulator runs, through its `/__emulator/keys` control,
 * as a key is rotated in the dashboard), and the stack config holds the new one. The engine stores the dynamic
 * provider's configuration (the stack config it was given, the key included) in the state, and
 * `refresh`, `preview --refresh` and `destroy` configure the provider from that stored copy: they
 * fail with 401, and the message names `notify:apiKey`, `NOTIFY_API_KEY` and `--run-program`. With
 * `--run-program` (the Automation API's `runProgram`) they use the current config and succeed.
 */
import { describe, expect, it } from "vitest";
import { nativeRequire } from "../helpers/pulumi";
import { useStack } from "../helpers/stack";

const OLD_KEY = "rotation-old-key-0123456789";
const NEW_KEY = "rotation-new-key-0123456789";

describe("a rotated API key", () => {
  const { emu, ts } = useStack({
    emulator: { apiKeys: [`${OLD_KEY}=dev`] },
    program: async () => {
      const notify = nativeRequire("pulumi-notify") as typeof import("../../provider");
      new notify.Topic("releases", { key: "releases", name: "Releases" });
    },
    config: { "notify:apiKey": { value: OLD_KEY, secret: true } },
  });

  it("refresh and destroy use the stored key and say so; with --run-program they use the new one", async () => {
    const control = (key: string, method: string, body: unknown) => fetch(`${emu!.url}/__emulator/keys`, {
      method, headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" }, body: JSON.stringify(body),
    });
    expect((await ts.stack.up()).summary.result).toBe("succeeded");

    // The rotation at the service, while it runs: a new key of the same environment (`dev`), then the old one revoked.
    expect((await control(OLD_KEY, "POST", { environment: "env_dev", key: NEW_KEY })).status).toBe(201);
    expect((await control(NEW_KEY, "DELETE", { key: OLD_KEY })).status).toBe(200);
    const state = (key: string) => fetch(`${emu!.url}/__emulator/state`, { headers: { authorization: `ApiKey ${key}` } });
    expect((await state(OLD_KEY)).status).toBe(401);
    const outcome = (p: Promise<unknown>) => p.then(() => "ok", (e: unknown) => String(e));

    const hint = [/401/, /notify:apiKey/, /NOTIFY_API_KEY/, /--run-program/];

    // The new key in stack config: operations that refresh or destroy without running the program
    // configure the provider from the key stored in the state, and fail naming where the key comes from.
    await ts.stack.setConfig("notify:apiKey", { value: NEW_KEY, secret: true });
    const stack = ts.stack;
    for (const op of [() => stack.refresh(), () => stack.preview({ refresh: true }), () => stack.destroy()]) {
      const failed = await outcome(op());
      for (const re of hint) expect(failed).toMatch(re);
    }
    expect(((await (await state(NEW_KEY)).json()) as { topics: unknown[] }).topics).toHaveLength(1);
    // With --run-program they configure it from the current config: refresh (which stores the new key), then destroy.
    expect(await outcome(ts.stack.refresh({ runProgram: true, expectNoChanges: true }))).toBe("ok");
    expect(await outcome(ts.stack.destroy({ runProgram: true }))).toBe("ok");
    expect(((await (await state(NEW_KEY)).json()) as { topics: unknown[] }).topics).toEqual([]);
  });
});
