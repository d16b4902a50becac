/**
 * The picture of an email shows its subject: `notify-preview`'s page of an email step (its HTML
 * file, and the PNG taken of it) has a mail client's header above the body, with the subject and
 * the sender's name of the environment's primary email integration where the service shows it,
 * and the service's body, unchanged, in a frame below. Rendered from source against an emulator
 * in this process.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPreviews, type PreviewResult } from "../../../preview";
import { chooseBrowser, startCamera } from "../../../preview/screenshot";
import { startTestEmulator, type TestEmulator } from "../../helpers/emulator";

const SUBJECT = 'Order <{{ payload.orderId }}> & "more"';
const RENDERED_SUBJECT = 'Order <A-17> & "more"';
const ESCAPED_SUBJECT = "Order &lt;A-17&gt; &amp; &quot;more&quot;";
const SENDER = "ACME <Shop>";
const BODY = "<h1>Order {{ payload.orderId }}</h1><p>Hi {{ subscriber.firstName }}</p>";
const TALL_BODY = '<!DOCTYPE html><html><body><div style="height:2000px;background:#fc0">Tall {{ payload.orderId }}</div></body></html>';
const WIDE_BODY = '<html><body><table width="1000" style="background:#fc0"><tr><td>Wide {{ payload.orderId }}</td></tr></table></body></html>';

/** The PNG's width and height from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** An email page's parts: the markup before the email's frame, and the email's document (its `data:` URL decoded). */
function parts(html: string): { header: string; email: string } {
  const at = html.indexOf("<iframe");
  expect(at, html).toBeGreaterThan(0);
  const src = /<iframe [^>]*src="data:text\/html;charset=utf-8;base64,([A-Za-z0-9+/=]*)"/.exec(html);
  expect(src, html).not.toBeNull();
  return { header: html.slice(0, at), email: Buffer.from(src![1]!, "base64").toString("utf8") };
}

describe("notify-preview's picture of an email", () => {
  let emu: TestEmulator;
  let work: string;
  const browser = chooseBrowser(undefined);
  const render = (out: string, screenshots: boolean) => renderPreviews({
    out: path.join(work, out), connection: { apiUrl: emu.url, apiKey: emu.key }, workflows: ["orders"],
    payload: { orderId: "A-17" }, browser: screenshots && "path" in browser ? browser.path : false,
  });
  const emailOf = (result: PreviewResult, stepId: string) => {
    const side = result.steps.find((s) => s.stepId === stepId)!.sides.current!;
    return { side, html: readFileSync(path.join(result.summary, "..", side.html!), "utf8") };
  };

  beforeAll(async () => {
    // A server that shows an API key integration credentials (late 2025), so the sender's name can be read.
    emu = await startTestEmulator({ hideCredentials: false });
    const made = await emu.api("POST", "/v1/integrations", {
      identifier: "mail", providerId: "sendgrid", channel: "email", active: true, check: false,
      credentials: { apiKey: "SG.key", from: "shop@acme.test", senderName: SENDER },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await emu.api("POST", `/v1/integrations/${made.body._id}/set-primary`);
    const wf = await emu.api("POST", "/v2/workflows", {
      workflowId: "orders", name: "Orders", active: true, steps: [
        { name: "Email", stepId: "email", type: "email", controlValues: { subject: SUBJECT, body: BODY, editorType: "html" } },
        { name: "Tall", stepId: "tall", type: "email", controlValues: { subject: "Tall", body: TALL_BODY, editorType: "html" } },
        { name: "Wide", stepId: "wide", type: "email", controlValues: { subject: "Wide", body: WIDE_BODY, editorType: "html" } },
      ],
    });
    expect(wf.status, JSON.stringify(wf.body)).toBe(201);
    work = mkdtempSync(path.join(os.tmpdir(), "notify-preview-header-"));
  });
  afterAll(async () => {
    await emu?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("writes the subject (escaped) and the sender's name above the service's body, which is unchanged", async () => {
    const result = await render("html", false);
    const { side, html } = emailOf(result, "email");
    expect(side.preview?.subject).toBe(RENDERED_SUBJECT);
    const { header, email } = parts(html);
    expect(header).toContain(ESCAPED_SUBJECT);
    expect(header).toContain("ACME &lt;Shop&gt;");
    expect(html).not.toContain(RENDERED_SUBJECT);
    expect(html).not.toContain(SENDER);
    // The email's document is the service's, byte for byte.
    expect(email).toBe(side.preview?.body);
    expect(email).toContain("<h1>Order A-17</h1><p>Hi John</p>");
  });

  it("shows the subject alone when the service hides the integration's credentials, as the current service does", async () => {
    const hide = await emu.api("POST", "/__emulator/behaviour", { hideCredentials: true });
    expect(hide.status, JSON.stringify(hide.body)).toBe(200);
    try {
      const result = await render("hidden", false);
      const { side, html } = emailOf(result, "email");
      const { header, email } = parts(html);
      expect(header).toContain(ESCAPED_SUBJECT);
      expect(header).not.toContain("ACME");
      expect(email).toBe(side.preview?.body);
    } finally {
      await emu.api("POST", "/__emulator/behaviour", { hideCredentials: false });
    }
  });

  it.skipIf(!("path" in browser))("screenshots the header above the whole email: the email alone's width, and its height plus the header's", async () => {
    const result = await render("png", true);
    expect(result.screenshots).toEqual(browser);
    const camera = await startCamera((browser as { path: string }).path);
    const added: number[] = [];
    try {
      for (const stepId of ["email", "tall", "wide"]) {
        const { side } = emailOf(result, stepId);
        const alone = path.join(work, `${stepId}-alone.png`);
        await camera.shoot(side.preview!.body as string, alone);
        const framed = pngSize(path.join(work, "png", side.png!));
        expect(framed.width, stepId).toBe(pngSize(alone).width);
        added.push(framed.height - pngSize(alone).height);
      }
    } finally {
      await camera.close();
    }
    // The header adds to the picture; the frame grows with the email (a 600-pixel email, a
    // 2000-pixel one and a 1000-pixel-wide one get the same header, no more), so none of the
    // email is cut off.
    expect(pngSize(path.join(work, "png", "orders/wide.png")).width).toBeGreaterThan(1000);
    expect(added[0]).toBeGreaterThan(0);
    expect(added).toEqual([added[0], added[0], added[0]]);
  });
});
