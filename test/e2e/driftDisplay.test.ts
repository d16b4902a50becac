/**
 * What the CLI shows of drift, through each front end alike (issue 55, item 3). A Slack token
 * rotated by hand showed on the dynamic front end as `~ ChannelConnection acme-slack update` with
 * no `[diff: ~auth]`: the engine's dynamic-provider plugin sends no changed keys and no detailed
 * diff, and the CLI then compares the old and new inputs, where a secret is `[secret]` on both
 * sides (dynamic.ts `engineDiff`). A workflow renamed by hand showed the stack output made of its
 * steps as `"inbox (in_app)" => "undefined (in_app)"`: the plugin supports no previews, so a
 * preview of the update gave the program the inputs as the outputs, steps without the ids the
 * service gave them (classes.ts `serviceOutputs`).
 */
import { describe, expect, it } from "vitest";
import { declareKind, FRONT_ENDS, type FrontEnd } from "../helpers/frontEnds";
import { previewShown, unknownOrSame } from "../helpers/shownDiff";
import { useStack } from "../helpers/stack";

const TOKEN = "xoxb-declared-0123";
const ROTATED = "xoxb-rotated-by-hand-4567";
const LABELS = ["inbox (in_app)", "email (email)"];

describe.each(FRONT_ENDS)("drift as the CLI shows it, through the %s front end", (frontEnd: FrontEnd) => {
  const { emu, ts } = useStack({
    frontEnd,
    seed: async (e) => {
      await e.api("POST", "/v2/subscribers", { subscriberId: "alice" });
      await e.api("POST", "/v1/integrations", { identifier: "slack-main", providerId: "slack", channel: "chat", active: true, check: false });
    },
    program: async () => {
      const welcome = declareKind(frontEnd, "Workflow", "welcome", {
        workflowId: "welcome", name: "Welcome",
        steps: [
          { name: "Inbox", type: "in_app", controlValues: { body: "Hi {{subscriber.firstName}}" } },
          { name: "Email", type: "email", controlValues: { subject: "Hello", body: "<p>Hi</p>" } },
        ],
      });
      declareKind(frontEnd, "ChannelConnection", "acme-slack", {
        identifier: "acme-slack", integrationIdentifier: "slack-main", subscriberId: "alice",
        workspace: { id: "T0123456", name: "Acme" }, auth: { accessToken: TOKEN },
      });
      // As a program shows its steps (demo/program.ts, examples/quickstart).
      return { stepLabels: welcome.steps!.apply((steps) => (steps as { stepId: string; type: string }[]).map((s) => `${s.stepId} (${s.type})`)) };
    },
  });
  const token = async () => (await emu.api("GET", "/v1/channel-connections/acme-slack")).body.auth.accessToken as string;

  it("up makes them, and a preview --refresh shows nothing", async () => {
    const up = await ts.stack.up();
    expect(up.outputs.stepLabels!.value).toEqual(LABELS);
    await ts.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("a token rotated by hand shows as [diff: ~auth] on the refresh and on the update, and up --refresh puts it back", async () => {
    expect((await emu.api("PATCH", "/v1/channel-connections/acme-slack", { workspace: { id: "T0123456", name: "Acme" }, auth: { accessToken: ROTATED } })).status).toBe(200);
    expect(await token()).toBe(ROTATED);

    const { res, shown } = await previewShown(ts.stack, { refresh: true, diff: true });
    // The plugin's detailed diff names `auth` (replaced whole); for a dynamic resource the engine
    // computes one from the unmasked inputs, which Pulumi 3.276.0 takes down to the key inside
    // (`auth.accessToken`; 3.259.0 stopped at `auth`). Either way the value is `[secret]`.
    expect(shown).toEqual({ "acme-slack": { op: "update", keys: ["auth"], paths: [frontEnd === "dynamic" ? ["auth", "accessToken"] : ["auth"]] } });
    const update = res.stdout.slice(res.stdout.indexOf("ChannelConnection: (update)"), res.stdout.indexOf("Resources:"));
    expect(update).toMatch(frontEnd === "dynamic" ? /~ auth\s*: \{\s*~ accessToken\s*: \[secret\] => \[secret\]\s*\}/ : /~ auth\s*: \[secret\] => \[secret\]/);
    // The summary lines, as `pulumi preview --refresh` prints them.
    const plain = await ts.stack.preview({ refresh: true });
    expect(plain.stdout).toMatch(/ChannelConnection\s+acme-slack\s+refresh\s+\[diff: ~auth\]/);
    expect(plain.stdout).toMatch(/ChannelConnection\s+acme-slack\s+update\s+\[diff: ~auth\]/);
    for (const out of [res.stdout, res.stderr, plain.stdout, plain.stderr]) {
      expect(out).not.toContain(ROTATED);
      expect(out).not.toContain(TOKEN);
    }

    await ts.stack.up({ refresh: true });
    expect(await token()).toBe(TOKEN);
    await ts.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("a workflow renamed by hand: the preview names it, and gives no step without its id in the outputs", async () => {
    const wf = (await emu.api("GET", "/v2/workflows/welcome")).body;
    expect((await emu.api("PATCH", `/v2/workflows/${wf._id}`, { name: "Renamed by hand" })).status).toBe(200);

    const { res, shown, outputs } = await previewShown(ts.stack, { refresh: true, diff: true });
    expect(Object.fromEntries(Object.entries(shown).map(([n, s]) => [n, s.keys]))).toEqual({ welcome: ["name"] });
    // Unknown until the update (the dynamic front end), or the steps as they are (the native plugin, whose update leaves them).
    expect(unknownOrSame(outputs.stepLabels, LABELS), JSON.stringify(outputs.stepLabels)).toBe(true);
    expect(res.stdout).not.toContain("undefined (");

    const up = await ts.stack.up({ refresh: true });
    expect(up.outputs.stepLabels!.value).toEqual(LABELS);
    expect((await emu.api("GET", "/v2/workflows/welcome")).body.name).toBe("Welcome");
    await ts.stack.preview({ refresh: true, expectNoChanges: true });
  });
});
