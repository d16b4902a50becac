/**
 * `notify-preview` as users run it (the compiled bin, the connection from NOTIFY_API_URL and
 * NOTIFY_API_KEY) against the emulator, on a stack the real engine deployed: one workflow's steps
 * to HTML (an email under a mail client's header with its subject), PNG screenshots of its emails
 * (when this machine has a Chromium; otherwise the summary's skip message) and the summary; the
 * same without a browser; a planned change read from a preview's event log, and a dashboard edit
 * read against the stack's exported state, each before and after side by side.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import { chooseBrowser } from "../../preview/screenshot";
import { CHANGED_HEADING, screenshotsSkipped } from "../../preview/summary";
import { VIEWPORT } from "../../preview/screenshot";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { createTestStack, loadPackage, ROOT, type TestStack } from "../helpers/pulumi";

const BIN = path.join(ROOT, "dist/preview/cli.js");
const LAYOUT = "<html><body><header>ACME header</header>{{ content }}</body></html>";

interface Spec { smsBody: string }

function program(spec: Spec): automation.PulumiFn {
  return async () => {
    const notify = loadPackage();
    const brand = new notify.Layout("brand", { layoutId: "brand", name: "Brand", controlValues: { email: { editorType: "html", body: LAYOUT } } });
    new notify.Workflow("orders", {
      workflowId: "orders", name: "Orders", active: true,
      payloadSchema: { type: "object", properties: { orderId: { type: "string" } } },
      steps: [
        { name: "Email", stepId: "email", type: "email", controlValues: { subject: "Order {{ payload.orderId }}", body: "<h1>Order {{ payload.orderId }}</h1><p>Hi {{ subscriber.firstName }}</p>", editorType: "html", layoutId: brand.layoutId } },
        { name: "Wait", type: "delay", controlValues: { type: "regular", amount: 1, unit: "minutes" } },
        { name: "Inbox", type: "in_app", controlValues: { subject: "Order {{ payload.orderId }}", body: "Shipped" } },
        { name: "SMS", stepId: "sms", type: "sms", controlValues: { body: spec.smsBody } },
        { name: "Chat", type: "chat", controlValues: { body: "Chat {{ payload.orderId }}" } },
        { name: "Push", type: "push", controlValues: { subject: "Push", body: "Push {{ payload.orderId }}" } },
      ],
    });
  };
}

/** The PNG's width and height from its IHDR chunk, after checking its signature. */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  expect(b.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  expect(b.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** An email's page: the markup above its frame, and the email's document (the frame's `data:` URL). */
function emailPage(html: string): { header: string; email: string } {
  const src = /<iframe [^>]*src="data:text\/html;charset=utf-8;base64,([A-Za-z0-9+/=]*)"/.exec(html);
  expect(src, html).not.toBeNull();
  return { header: html.slice(0, src!.index), email: Buffer.from(src![1]!, "base64").toString("utf8") };
}

describe("notify-preview against the emulator", () => {
  let emu: TestEmulator;
  let ts: TestStack;
  let work: string;
  const spec: Spec = { smsBody: "Order {{ payload.orderId }} shipped" };

  /** Runs the bin with the connection in the environment; resolves with its exit code and output. */
  const run = (args: string[]) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: emu.key }, stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "", stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  const read = (dir: string, file: string) => readFileSync(path.join(dir, file), "utf8");

  beforeAll(async () => {
    emu = await startTestEmulator();
    ts = await createTestStack({ program: program(spec), config: emu.stackConfig() });
    await ts.stack.up();
    work = mkdtempSync(path.join(os.tmpdir(), "notify-preview-"));
    writeFileSync(path.join(work, "payload.json"), JSON.stringify({ orderId: "A-17" }));
  });
  afterAll(async () => {
    await ts?.cleanup();
    await emu?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("renders each channel step of a workflow to HTML, screenshots its email and writes the summary", async () => {
    const out = path.join(work, "one");
    const r = await run(["--workflow", "orders", "--out", out, "--payload", path.join(work, "payload.json")]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(path.join(out, "summary.md"));
    // The email as the service renders it (the payload substituted, inside the step's layout), in
    // the page's frame, under a mail client's header with its subject.
    const page = emailPage(read(out, "orders/email.html"));
    expect(page.email).toMatch(/<header>ACME header<\/header><h1>Order A-17<\/h1><p>Hi John<\/p>/);
    expect(page.header).toContain("Order A-17");
    expect(read(out, "orders/sms.html")).toContain("Order A-17 shipped");
    for (const step of ["inbox", "chat", "push"]) expect(existsSync(path.join(out, `orders/${step}.html`)), step).toBe(true);
    // The delay step is not a message: nothing is rendered for it.
    expect(existsSync(path.join(out, "orders/wait.html"))).toBe(false);
    expect(JSON.parse(read(out, "orders/payload.json"))).toEqual({ orderId: "A-17" });
    const summary = read(out, "summary.md");
    for (const step of ["email", "inbox", "sms", "chat", "push"]) expect(summary).toContain(`\`orders\` › \`${step}\``);
    expect(summary).toContain("**Subject:** Order A-17");
    const browser = chooseBrowser(undefined);
    if ("path" in browser) {
      const size = pngSize(path.join(out, "orders/email.png"));
      expect(size.width).toBe(VIEWPORT.width);
      // The email is shorter than the viewport: the header adds to the viewport's height.
      expect(size.height).toBeGreaterThan(VIEWPORT.height);
      expect(summary).toContain("![screenshot](orders/email.png)");
    } else {
      expect(summary).toContain(screenshotsSkipped(browser.skipped));
      expect(existsSync(path.join(out, "orders/email.png"))).toBe(false);
    }
  });

  it("writes the HTML and says why when the browser it is given is not there", async () => {
    const out = path.join(work, "nobrowser");
    const missing = path.join(work, "no-such-chromium");
    const r = await run(["--workflow", "orders", "--out", out, "--browser", missing]);
    expect(r.code, r.stderr).toBe(0);
    const choice = chooseBrowser(missing);
    expect("skipped" in choice && read(out, "summary.md")).toContain(screenshotsSkipped("skipped" in choice ? choice.skipped : ""));
    expect(existsSync(path.join(out, "orders/email.html"))).toBe(true);
    expect(existsSync(path.join(out, "orders/email.png"))).toBe(false);
  });

  it("shows a planned change before and after, from the event log of a preview", async () => {
    spec.smsBody = "Order {{ payload.orderId }} is on its way";
    const events: string[] = [];
    await ts.stack.preview({ onEvent: (e) => events.push(JSON.stringify(e)) });
    const log = path.join(work, "events.jsonl");
    writeFileSync(log, events.join("\n") + "\n");
    const out = path.join(work, "plan");
    const r = await run(["--changed-from", log, "--out", out, "--payload", path.join(work, "payload.json"), "--no-screenshots"]);
    expect(r.code, r.stderr).toBe(0);
    expect(read(out, "orders/sms.before.html")).toContain("Order A-17 shipped");
    expect(read(out, "orders/sms.after.html")).toContain("Order A-17 is on its way");
    const summary = read(out, "summary.md");
    const changed = summary.slice(summary.indexOf(`## ${CHANGED_HEADING}`), summary.indexOf("## Unchanged steps"));
    expect(changed).toContain("`orders` › `sms` (sms)");
    expect(changed).toContain("| **body:** Order A-17 shipped<br>[HTML](orders/sms.before.html) | **body:** Order A-17 is on its way<br>[HTML](orders/sms.after.html) |");
    // The other steps render the same on both sides.
    expect(changed).not.toContain("`orders` › `email`");
    expect(summary.slice(summary.indexOf("## Unchanged steps"))).toContain("`orders` › `email` (email)");
    spec.smsBody = "Order {{ payload.orderId }} shipped";
  });

  it("shows a dashboard edit against the stack's exported state", async () => {
    const state = path.join(work, "state.json");
    writeFileSync(state, JSON.stringify(await ts.stack.exportStack()));
    // A colleague edits the email's subject in the dashboard.
    const live = (await emu.api("GET", "/v2/workflows/orders")).body;
    const steps = live.steps.map((s: any) => ({ _id: s._id, name: s.name, type: s.type, controlValues: s.type === "email" ? { ...s.controlValues, subject: "Your order {{ payload.orderId }}" } : s.controlValues }));
    const edit = await emu.api("PUT", "/v2/workflows/orders", { name: live.name, origin: live.origin, active: true, preferences: {}, steps });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const out = path.join(work, "state");
    const r = await run(["--changed-from", state, "--out", out, "--payload", path.join(work, "payload.json"), "--no-screenshots"]);
    expect(r.code, r.stderr).toBe(0);
    const summary = read(out, "summary.md");
    const changed = summary.slice(summary.indexOf(`## ${CHANGED_HEADING}`), summary.indexOf("## Unchanged steps"));
    expect(changed).toMatch(/`orders` › `email` \(email\)\n\n\| Before \| After \|\n\|---\|---\|\n\| \*\*Subject:\*\* Order A-17.*\| \*\*Subject:\*\* Your order A-17/);
    expect(changed).not.toContain("`orders` › `sms`");
  });
});
