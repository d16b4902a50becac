/**
 * Moving a stack between the two TypeScript front ends without replacing anything
 * (docs/typescript-front-ends.md):
 * - dynamic to native: the program declares the typed SDK's class under the same name, with an
 *   alias of the dynamic type. The engine matches the old resource through the alias; the provider
 *   changes (the Node.js dynamic provider to the notify plugin), and the new provider's DiffConfig
 *   does not ask for a replacement, so the resource is diffed by the plugin (pulumi/pulumi,
 *   pkg/resource/deploy/step_generator.go, providerChanged): no change, no request that writes.
 * - native to dynamic: the resources leave the state (`pulumi state delete`, which keeps the
 *   objects on the service), and the program declares the dynamic classes with `adopt: true`,
 *   which take the objects over with reads alone.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as native from "../../sdk/nodejs";
import { cliEnv, cliPath, exportedState, loadPackage } from "../helpers/pulumi";
import { detailedDiffs } from "../helpers/native";
import { useStack } from "../helpers/stack";
import { linkNodejsSdk, nodejsSdkName } from "../../scripts/nodejs-sdk";

const STEPS = [{ name: "Inbox", type: "in_app" as const, controlValues: { body: "Hi" } }];


describe("moving a stack between the dynamic classes and the typed native SDK", () => {
  let frontEnd: "dynamic" | "native" = "dynamic";
  let adopt = false;
  let notify: typeof native;

  const program: automation.PulumiFn = async () => {
    if (frontEnd === "dynamic") {
      const dyn = loadPackage();
      new dyn.Integration("slack", { identifier: "slack-main", name: "Slack", providerId: "slack", channel: "chat", active: true, adopt });
      new dyn.Workflow("welcome", { workflowId: "welcome", name: "Welcome", steps: STEPS, adopt });
      new dyn.Topic("news", { key: "news", name: "News", subscribers: ["alice"], adopt });
      return;
    }
    // The dynamic resources' type: `pulumi-nodejs:dynamic/notify:<name>` (provider/resources/classes.ts).
    const was = (name: string) => ({ aliases: [{ type: `pulumi-nodejs:dynamic/notify:${name}` }] });
    new notify.Integration("slack", { identifier: "slack-main", name: "Slack", providerId: "slack", channel: "chat", active: true }, was("Integration"));
    new notify.Workflow("welcome", { workflowId: "welcome", name: "Welcome", steps: STEPS }, was("Workflow"));
    new notify.Topic("news", { key: "news", name: "News", subscribers: ["alice"] }, was("Topic"));
  };
  // The plugin from the start: the dynamic resources keep their own provider.
  const { emu, ts } = useStack({ program, frontEnd: "native", seed: async (e) => void (await e.api("POST", "/v2/subscribers", { subscriberId: "alice" })) });

  const writes = async () => (await emu.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route}`);
  const resources = async () => (await exportedState(ts.stack)).resources
    .filter((r) => !String(r.type).startsWith("pulumi:"))
    .map((r) => ({ type: String(r.type), id: String(r.id) }))
    .sort((a, b) => a.id.localeCompare(b.id));

  beforeAll(() => {
    linkNodejsSdk(ts.dir);
    notify = createRequire(path.join(ts.dir, "package.json"))(nodejsSdkName()) as typeof native;
  });

  it("dynamic to native: the aliased native resources replace nothing and write nothing", async () => {
    await ts.stack.up();
    const before = await resources();
    expect(before.map((r) => r.type).sort()).toEqual(["Integration", "Topic", "Workflow"].map((n) => `pulumi-nodejs:dynamic/notify:${n}`));

    frontEnd = "native";
    const { diffs } = await detailedDiffs(ts.stack);
    // No create, delete or replace: at most an update in place, and none here.
    expect(diffs).toEqual({});
    await emu.clearRequests();
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.create ?? 0).toBe(0);
    expect(up.summary.resourceChanges?.delete ?? 0).toBe(0);
    expect(up.summary.resourceChanges?.replace ?? 0).toBe(0);
    expect(await writes()).toEqual([]);
    const after = await resources();
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(after.map((r) => r.type).sort()).toEqual(["Integration", "Topic", "Workflow"].map((n) => `notify:index:${n}`));
    await ts.stack.preview({ expectNoChanges: true });
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("native to dynamic: state delete, then adopt: true takes the objects over with reads alone", async () => {
    const urns = (await exportedState(ts.stack)).resources.map((r) => String(r.urn)).filter((u) => u.includes("::notify:index:"));
    expect(urns).toHaveLength(3);
    for (const urn of urns) {
      execFileSync(cliPath(), ["state", "delete", urn, "--yes", "--stack", ts.stack.name, "--cwd", ts.dir], { env: { ...process.env, ...cliEnv(ts.dir) }, stdio: "pipe" });
    }
    frontEnd = "dynamic";
    adopt = true;
    await emu.clearRequests();
    await ts.stack.up();
    expect(await writes()).toEqual([]);
    expect((await resources()).map((r) => r.type).sort()).toEqual(["Integration", "Topic", "Workflow"].map((n) => `pulumi-nodejs:dynamic/notify:${n}`));
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
    const s = await emu.state();
    expect(s.integrations.filter((i) => !i.deleted)).toHaveLength(1);
    expect(s.workflows).toHaveLength(1);
  });
});
