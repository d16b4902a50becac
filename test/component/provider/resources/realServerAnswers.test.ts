/**
 * The provider's modules against the emulator where it answers as the real 3.15.0 server does
 * (test/conformance/realServer.test.ts cites each rule): a workflow declaring preferences for some
 * channels is accepted and shows no drift, and the service's defaults a program leaves undeclared
 * (a workflow's `active`, the first email integration's `primary`) never show as drift.
 */
import { describe, expect, it } from "vitest";
import { checked, emulatorPerBlock, impl, type Obj } from "../../../helpers/implementation";

describe("the provider on the real server's answers", () => {
  const emu = emulatorPerBlock({});
  const workflow = impl("workflow");
  const integration = impl("integration");
  const inbox = [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }];

  /** create, then a read and a diff against the same inputs: the drift a refresh would show. */
  async function roundTrip(p: typeof workflow, inputs: Obj) {
    const made = await p.create(await checked(p, inputs));
    const read = await p.read(made.id, made.outs);
    return { made, read, diff: await p.diff(made.id, read.props, await checked(p, inputs)) };
  }

  it("sends every channel for preferences declared for some, as the service holds the rest, and shows no drift", async () => {
    const preferences = { user: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: false } } } };
    const { made, diff } = await roundTrip(workflow, { workflowId: "digest", name: "Digest", steps: inbox, preferences });
    expect(diff.changes).toBe(false);
    const held = (await emu().api("GET", "/v2/workflows/digest")).body.preferences.user.channels;
    expect(held).toEqual({ email: { enabled: false }, sms: { enabled: true }, in_app: { enabled: true }, chat: { enabled: true }, push: { enabled: true } });
    // A channel turned off by hand and not declared stays as the service has it through an update.
    await emu().api("PUT", "/v2/workflows/digest", { name: "Digest", steps: inbox, origin: "external", preferences: { user: { ...preferences.user, channels: { ...held, sms: { enabled: false } } } } });
    const renamed = await checked(workflow, { workflowId: "digest", name: "Digest (renamed)", steps: inbox, preferences: { user: { ...preferences.user, channels: { email: { enabled: true } } } } });
    const live = await workflow.read(made.id, made.outs);
    await workflow.update(made.id, live.props, renamed);
    expect((await emu().api("GET", "/v2/workflows/digest")).body.preferences.user.channels).toMatchObject({ email: { enabled: true }, sms: { enabled: false } });
  });

  it("shows no drift for a workflow left active by default", async () => {
    const { read, diff } = await roundTrip(workflow, { workflowId: "plain", name: "Plain", steps: inbox });
    expect(read.props.status).toBe("ACTIVE");
    expect(diff.changes).toBe(false);
  });

  it("shows no drift for the first email integration made primary by the service", async () => {
    const { read, diff } = await roundTrip(integration, { identifier: "sendgrid", providerId: "sendgrid", channel: "email", active: true, credentials: { apiKey: "SG.x" } });
    expect(read.props.primary).toBe(true);
    expect(diff.changes).toBe(false);
  });
});
