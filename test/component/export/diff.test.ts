/**
 * `notify-export --diff` (export/diff.ts): two environments, here of two emulators (one in
 * production mode, one in api.md's), compared kind by kind, object by object, field by field, as
 * the built bin prints it: the same setup made in both compares equal (ids, secrets and answer
 * shapes aside), and each difference made after is named, as text and as Markdown; exit 0 when
 * equal, 1 when not or when the other environment is not given (saying what is missing).
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../helpers/emulator";
import { runProcess } from "../../helpers/process";
import { ROOT } from "../../helpers/pulumi";

const NODE = process.execPath;
const BIN = path.join(ROOT, "dist/export/cli.js");

/** The same setup, made through the API (as the dashboard makes it), with a secret of each side's own. */
async function setUp(emu: TestEmulator, secret: string): Promise<void> {
  const ok = async (method: string, p: string, body?: unknown) => {
    const r = await emu.api(method, p, body);
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  await ok("POST", "/v1/integrations", { identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true, check: false, credentials: { apiKey: secret, from: "a@example.com" } });
  await ok("POST", "/v2/layouts", { layoutId: "brand", name: "Brand" });
  await ok("POST", "/v2/workflows", {
    workflowId: "welcome", name: "Welcome", tags: ["onboarding"],
    steps: [{ name: "Email", type: "email", controlValues: { subject: "Hi {{subscriber.firstName}}", body: "Welcome", layoutId: "brand" } }, { name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }],
  });
  await ok("POST", "/v2/topics", { key: "news", name: "News" });
  await ok("POST", "/v1/environment-variables", { key: "BASE_URL", type: "string", isSecret: false, values: [{ _environmentId: (await ok("GET", "/v1/environments/me"))._id, value: "https://app.example.com" }] });
  await ok("POST", "/v2/contexts", { type: "tenant", id: "acme", data: { plan: "pro" } });
}

const run = (a: TestEmulator, b: TestEmulator, extra: string[] = []) => runProcess(NODE, [BIN, "--diff", ...extra], {
  env: { ...process.env, NOTIFY_API_URL: a.url, NOTIFY_API_KEY: a.key, NOTIFY_OTHER_API_URL: b.url, NOTIFY_OTHER_API_KEY: b.key },
});

describe("notify-export --diff", () => {
  let a: TestEmulator;
  let b: TestEmulator;
  beforeAll(async () => {
    a = await startTestEmulator({ mode: "production" });
    b = await startTestEmulator({ mode: "spec" });
    await setUp(a, "SG.first");
    await setUp(b, "SG.second");
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("finds the same setup in two environments equal, whatever their ids, secrets and answer shapes, and exits 0", async () => {
    const r = await run(a, b);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.stdout).toMatch(/^Development \(http:\/\/127\.0\.0\.1:\d+\) and Development \(http:\/\/127\.0\.0\.1:\d+\) hold the same setup/);
    expect(r.code).toBe(0);
  });

  it("names each object only in one and each field that differs, as text and as Markdown, and exits 1", async () => {
    await b.api("PATCH", "/v2/topics/news", { name: "News (staging)" });
    await b.api("POST", "/v2/topics", { key: "extra", name: "Extra" });
    await a.api("DELETE", "/v2/contexts/tenant/acme");
    const workflow = (await b.api("GET", "/v2/workflows/welcome")).body;
    await b.api("PUT", "/v2/workflows/welcome", { ...workflow, steps: workflow.steps.map((s: any, i: number) => ({ name: s.name, type: s.type, stepId: s.stepId, controlValues: i === 0 ? { ...s.controlValues, subject: "Hello" } : s.controlValues })) });
    const text = await run(a, b);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("  ~ news:\n      name: \"News\" => \"News (staging)\"");
    expect(text.stdout).toMatch(/\+ extra: only in Development \(http:\/\/127\.0\.0\.1:\d+\)/);
    expect(text.stdout).toMatch(/Context:\n {2}\+ tenant:acme: only in/);
    expect(text.stdout).toContain("steps[0].controlValues.subject: \"Hi {{subscriber.firstName}}\" => \"Hello\"");
    // The integration's key differs too, but secrets are not compared.
    expect(text.stdout).not.toMatch(/SG\.|sendgrid-main/);
    const md = await run(a, b, ["--markdown"]);
    expect(md.code).toBe(1);
    expect(md.stdout).toMatch(/^### 4 differences between /);
    expect(md.stdout).toContain("| `news` | `name` | `\"News\"` | `\"News (staging)\"` |");
  });

  it("refuses to run without the other environment, naming what is missing, and reads nothing", async () => {
    const r = await runProcess(NODE, [BIN, "--diff"], { env: { ...process.env, NOTIFY_API_URL: a.url, NOTIFY_API_KEY: a.key, NOTIFY_OTHER_API_URL: "", NOTIFY_OTHER_API_KEY: "" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--diff needs the other environment's address (--other-api-url, else NOTIFY_OTHER_API_URL) and API key (--other-api-key, else NOTIFY_OTHER_API_KEY)");
  });
});
