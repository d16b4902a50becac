/**
 * `notify-preview`'s work: asks the service to render each email, in-app, SMS, chat and push step
 * of the workflows asked for (`POST /v2/workflows/{workflowId}/step/{stepId}/preview`), writes each
 * rendering as an HTML file (an email under a mail client's header: its sender's name when known,
 * and its subject), a PNG screenshot of each email, and a Markdown summary; with a change
 * source (a preview of `up`, or a stack's state), each step before and after the change, side by
 * side in the summary when they differ.
 *
 * Files under the output directory: `<workflowId>/<stepId>.html` (and `.png`) for a step as the
 * service has it; `<workflowId>/<stepId>.before.html` and `.after.html` (and `.png`) when comparing;
 * `<workflowId>/payload.json`, the payload rendered with; `summary.md`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isNotFound, type NotifyClient } from "../provider/client";
import { clientFor, type ConnectionSettings } from "../provider/config";
import { CHANNELS, type StepPreviewBody, type StepResponse, type Workflow } from "../provider/schemas";
import { chooseBrowser, EMAIL_FRAME_ID, startCamera, VIEWPORT, type BrowserChoice, type Camera } from "./screenshot";
import type { ChangeSource, DeclaredStep } from "./sources";
import type { Side, SideName, StepReport } from "./report";
import { writeSummary } from "./summary";

export type { Side, SideName, StepReport } from "./report";

export { readChangeSource, workflowsOfState, type ChangeSource, type DeclaredWorkflow } from "./sources";
export { BROWSER_ENV, BROWSER_NAMES, chooseBrowser } from "./screenshot";

type Obj = Record<string, unknown>;

/** What to render and where. */
export interface PreviewOptions {
  /** The directory the files go to (created when missing). */
  out: string;
  /** The connection (else NOTIFY_API_URL and NOTIFY_API_KEY). */
  connection?: ConnectionSettings;
  /** Workflows rendered as the service has them. */
  workflows?: string[];
  /** Workflows rendered before and after a change (see {@link ChangeSource}). */
  changes?: ChangeSource;
  /** The trigger payload to render with; else the service's example from the workflow's payload schema. */
  payload?: Obj;
  /** The browser's path; `false`: no screenshots; undefined: look for one (see chooseBrowser). */
  browser?: string | false;
  /** Progress lines. */
  progress?: (line: string) => void;
}

/** What a run wrote. */
export interface PreviewResult {
  steps: StepReport[];
  /** Workflows asked for that the service does not have (and no change source declares). */
  missing: string[];
  /** The browser used, or why screenshots were skipped. */
  screenshots: BrowserChoice;
  /** The summary's path. */
  summary: string;
}

/** The step kinds that are rendered: the delivery channels. */
export const PREVIEWED_KINDS: readonly string[] = CHANNELS;

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, "_");
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The HTML page of a non-email preview: its fields, each under its name. */
export function channelPage(title: string, preview: Obj): string {
  const rows = Object.entries(preview).map(([k, v]) =>
    `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(typeof v === "string" ? v : JSON.stringify(v, null, 2))}</dd>`).join("\n");
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    "<style>body{font-family:sans-serif;max-width:600px;margin:24px auto}dt{font-weight:bold;margin-top:12px}dd{margin:4px 0 0;white-space:pre-wrap}</style>" +
    `</head><body><h1>${escapeHtml(title)}</h1><dl>\n${rows}\n</dl></body></html>\n`;
}

/** The longest URL Chromium navigates to (`url::kMaxURLChars`, 2 MiB): an email whose `data:` URL is longer goes in `srcdoc`. */
const MAX_URL_LENGTH = 2 * 1024 * 1024;

/**
 * The HTML page of an email as a mail client shows it: a header with the subject and, when known,
 * the sender's name, and below it the email, in a frame of its own.
 *
 * The email's document is the service's, byte for byte, as the frame's `data:` URL. A frame keeps
 * the two apart: the email's CSS does not style the header nor the header's the email, and the
 * email's `<body>` (its margins, background, width) is laid out as it is alone. The header put
 * into the email's own markup would be styled by the email's CSS and shift its layout. A `data:`
 * document is parsed as a page of its own, in quirks mode when it has no doctype, as it was as the
 * page itself; a `srcdoc` frame would always be in standards mode (which lays out tables and
 * images differently), so it is used only for an email too long for a URL. The frame runs no
 * scripts (sandboxed without `allow-scripts`: mail clients run none; the screenshot's browser runs
 * none either).
 *
 * In a browser the frame fills the window below the header and the email scrolls in it, as in a
 * mail client's reading pane (a `data:` frame is of another origin, whose height the page cannot
 * read); for the screenshot the camera grows the frame to the email's height (screenshot.ts).
 */
export function emailPage(email: { subject?: unknown; body: string }, sender?: string): string {
  const subject = typeof email.subject === "string" && email.subject.trim() ? email.subject : undefined;
  const dataUrl = `data:text/html;charset=utf-8;base64,${Buffer.from(email.body, "utf8").toString("base64")}`;
  const source = dataUrl.length <= MAX_URL_LENGTH ? `src="${dataUrl}"` : `srcdoc="${escapeHtml(email.body)}"`;
  // Line heights in pixels: the header's height is whole, so the email starts on a pixel boundary
  // and is drawn as it is alone (a fractional offset would change its anti-aliasing).
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject ?? "(no subject)")}</title>` +
    "<style>html,body{height:100%;margin:0}body{display:flex;flex-direction:column;background:#fff}" +
    ".mail-header{flex:none;padding:12px 16px;border-bottom:1px solid #d0d7de;background:#f6f8fa;color:#1f2328;font:14px/20px system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif}" +
    ".mail-subject{margin:0;font-size:18px;line-height:24px;font-weight:600;overflow-wrap:anywhere}.mail-subject.none{font-weight:400;font-style:italic;color:#57606a}" +
    ".mail-from{margin:4px 0 0;color:#57606a}.mail-from b{color:#1f2328;font-weight:600}" +
    `#${EMAIL_FRAME_ID}{display:block;flex:1 1 auto;width:100%;min-height:${VIEWPORT.height}px;border:0}</style></head><body>\n` +
    `<header class="mail-header">` +
    (subject !== undefined ? `<h1 class="mail-subject">${escapeHtml(subject)}</h1>` : `<h1 class="mail-subject none">(no subject)</h1>`) +
    (sender ? `<p class="mail-from">From <b>${escapeHtml(sender)}</b></p>` : "") +
    `</header>\n<iframe id="${EMAIL_FRAME_ID}" title="The email" sandbox="allow-popups allow-popups-to-escape-sandbox" ${source}></iframe>\n</body></html>\n`;
}

/**
 * The sender's name the service sends emails with: the `senderName` credential of the active
 * primary email integration of the API key's environment (the integration an email step sends
 * through; without one the step does not send). Undefined when there is none, or when the service
 * does not show credentials: the current service never shows an API key an integration's
 * credentials (`{}`), so against it the header has the subject alone; servers of late 2025, and
 * the emulator with `hideCredentials: false`, show them. The step preview itself answers the
 * subject and body only.
 */
export async function emailSenderName(client: NotifyClient): Promise<string | undefined> {
  const [environment, integrations] = await Promise.all([client.environments.me(), client.integrations.list()]);
  const primary = integrations.find((i) => i._environmentId === environment._id && i.channel === "email" && i.active && i.primary && !i.deleted);
  const name = primary?.credentials?.senderName;
  // A value the service encrypted (`nvsk.`, the 2.0 server's write answers) is not the name.
  return typeof name === "string" && name.trim() && !name.startsWith("nvsk.") ? name : undefined;
}

/** The service's workflow, or undefined when it has none of that id. */
async function liveWorkflow(client: NotifyClient, id: string): Promise<Workflow | undefined> {
  try {
    return await client.workflows.get(id);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** The service's step a declared step is: by `stepId`, else by name; of the same kind. */
function matchStep(declared: DeclaredStep, live: StepResponse[]): StepResponse | undefined {
  const found = declared.stepId !== undefined ? live.find((s) => s.stepId === declared.stepId) : live.find((s) => s.name === declared.name);
  return found && found.type === declared.type ? found : undefined;
}

/** Renders and writes files; one instance per run. */
class Renderer {
  private camera?: Camera;
  private sender?: Promise<string | undefined>;
  constructor(private readonly client: NotifyClient, private readonly out: string, readonly screenshots: BrowserChoice, private readonly log: (l: string) => void) {}

  async start(): Promise<BrowserChoice> {
    if (!("path" in this.screenshots)) return this.screenshots;
    try {
      this.camera = await startCamera(this.screenshots.path);
      return this.screenshots;
    } catch (err) {
      return { skipped: `the browser ${this.screenshots.path} did not start: ${String((err as Error).message).split("\n")[0]}` };
    }
  }

  async close(): Promise<void> {
    await this.camera?.close();
  }

  /** The sender's name of the emails, looked up at the first one; a failed look-up leaves the header without it (and says so). */
  private senderName(): Promise<string | undefined> {
    this.sender ??= emailSenderName(this.client).catch((err: unknown) => {
      this.log(`the emails' sender name is not shown: ${String((err as Error)?.message ?? err).split("\n")[0]}`);
      return undefined;
    });
    return this.sender;
  }

  /** Asks the service to render a step (with `controlValues` in place of the stored ones when given) and writes its files. */
  async side(workflowId: string, step: StepResponse, side: SideName, body: StepPreviewBody): Promise<{ side: Side; example?: Obj }> {
    const r = await this.client.workflows.preview(workflowId, step.stepId, body);
    const preview = r.result.preview ?? {};
    if (!Object.keys(preview).length) return { side: { status: "empty" }, example: r.previewPayloadExample };
    const base = path.join(safe(workflowId), `${safe(step.stepId)}${side === "current" ? "" : `.${side}`}`);
    mkdirSync(path.join(this.out, safe(workflowId)), { recursive: true });
    const html = step.type === "email" && typeof preview.body === "string"
      ? emailPage({ subject: preview.subject, body: preview.body }, await this.senderName())
      : channelPage(`${step.name} (${step.type})`, preview);
    const out: Side = { status: "rendered", preview, html: `${base}.html` };
    writeFileSync(path.join(this.out, out.html!), html);
    if (step.type === "email" && this.camera) {
      out.png = `${base}.png`;
      await this.camera.shoot(html, path.join(this.out, out.png));
    }
    this.log(`rendered ${workflowId}/${step.stepId}${side === "current" ? "" : ` (${side})`}`);
    return { side: out, example: r.previewPayloadExample };
  }
}

const absent = (note: string): Side => ({ status: "absent", note });
const unavailable = (note: string): Side => ({ status: "unavailable", note });

/** Whether two sides show the same thing. */
function same(a: Side | undefined, b: Side | undefined): boolean {
  return !!a && !!b && a.status === b.status && JSON.stringify(a.preview ?? null) === JSON.stringify(b.preview ?? null);
}

/**
 * Renders what `options` asks for and writes the files and the summary. Screenshots are skipped,
 * with the reason in the summary and the result, when no browser is found or it does not start.
 */
export async function renderPreviews(options: PreviewOptions): Promise<PreviewResult> {
  const log = options.progress ?? (() => {});
  mkdirSync(options.out, { recursive: true });
  const client = clientFor(options.connection);
  const renderer = new Renderer(client, options.out, chooseBrowser(options.browser), log);
  const screenshots = await renderer.start();
  const steps: StepReport[] = [];
  const missing: string[] = [];
  const given: StepPreviewBody["previewPayload"] = options.payload ? { payload: options.payload } : undefined;
  try {
    for (const workflowId of options.workflows ?? []) {
      const live = await liveWorkflow(client, workflowId);
      if (!live) {
        missing.push(workflowId);
        continue;
      }
      const payloads: Obj[] = [];
      for (const step of live.steps.filter((s) => PREVIEWED_KINDS.includes(s.type))) {
        const r = await renderer.side(live.workflowId, step, "current", { previewPayload: given });
        if (r.example) payloads.push(r.example);
        steps.push({ workflowId: live.workflowId, stepId: step.stepId, name: step.name, type: step.type, sides: { current: r.side } });
      }
      writePayload(options.out, live.workflowId, payloads);
    }
    for (const declared of options.changes?.workflows ?? []) {
      steps.push(...await compareWorkflow(client, renderer, options.out, options.changes!.kind, declared, given));
    }
  } finally {
    await renderer.close();
  }
  const summary = path.join(options.out, "summary.md");
  writeFileSync(summary, writeSummary({ steps, missing, screenshots, comparing: options.changes?.kind }));
  return { steps, missing, screenshots, summary };
}

/** `payload.json` of a workflow: the payload of its first rendering (the service's example when none was given). */
function writePayload(out: string, workflowId: string, examples: Obj[]): void {
  const first = examples.find((e) => e && typeof e === "object");
  if (!first) return;
  mkdirSync(path.join(out, safe(workflowId)), { recursive: true });
  writeFileSync(path.join(out, safe(workflowId), "payload.json"), JSON.stringify(first.payload ?? {}, null, 2) + "\n");
}

/**
 * One workflow before and after a change. The declared side (a plan's new steps, or a state's
 * deployed steps) is rendered through the service's step of the same id with its control values
 * sent in the request; the other side is the service's step as stored. A declared step the service
 * does not have yet cannot be rendered (the service renders only steps it holds).
 */
async function compareWorkflow(
  client: NotifyClient, renderer: Renderer, out: string, kind: ChangeSource["kind"],
  declared: { workflowId: string; steps?: DeclaredStep[] }, given: StepPreviewBody["previewPayload"],
): Promise<StepReport[]> {
  const live = await liveWorkflow(client, declared.workflowId);
  const liveSteps = (live?.steps ?? []).filter((s) => PREVIEWED_KINDS.includes(s.type));
  const declaredSide: SideName = kind === "plan" ? "after" : "before";
  const liveSide: SideName = kind === "plan" ? "before" : "after";
  const reports: StepReport[] = [];
  const matched = new Set<StepResponse>();
  // With a payload schema the service's example may hold the time; both sides then get the first one's payload.
  let payload = given;
  const examples: Obj[] = [];
  const render = async (step: StepResponse, side: SideName, controlValues?: Obj) => {
    const r = await renderer.side(declared.workflowId, step, side, { ...(controlValues ? { controlValues } : {}), previewPayload: payload });
    if (r.example) examples.push(r.example);
    if (!payload && live?.payloadSchema && r.example?.payload) payload = { payload: r.example.payload as Obj };
    return r.side;
  };
  for (const d of (declared.steps ?? []).filter((s) => PREVIEWED_KINDS.includes(s.type))) {
    const step = live ? matchStep(d, liveSteps) : undefined;
    const id = step?.stepId ?? d.stepId ?? d.name ?? "step";
    const sides: Partial<Record<SideName, Side>> = {};
    if (step) {
      matched.add(step);
      sides[liveSide] = await render(step, liveSide);
      sides[declaredSide] = await render(step, declaredSide, d.controlValues ?? {});
    } else if (kind === "plan") {
      sides.before = absent("not on the service");
      sides.after = unavailable("a step the service does not have yet: it renders after `pulumi up`");
    } else {
      sides.before = unavailable("deployed by the stack, but no longer on the service");
      sides.after = absent("not on the service");
    }
    reports.push({ workflowId: declared.workflowId, stepId: id, name: step?.name ?? d.name ?? id, type: d.type, sides, changed: !same(sides.before, sides.after) });
  }
  for (const step of liveSteps.filter((s) => !matched.has(s))) {
    const sides: Partial<Record<SideName, Side>> = {};
    sides[liveSide] = await render(step, liveSide);
    sides[declaredSide] = absent(kind === "plan" ? (declared.steps ? "removed by the change" : "the workflow is deleted") : "not in the stack's state");
    reports.push({ workflowId: declared.workflowId, stepId: step.stepId, name: step.name, type: step.type, sides, changed: true });
  }
  writePayload(out, declared.workflowId, examples);
  return reports;
}
