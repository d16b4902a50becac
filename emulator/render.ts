/**
 * How the emulated service renders a step's content for a preview, after production
 * (production-notes.md, Fifth pass §3, and the service's source it cites): control values are
 * LiquidJS templates over `{payload, subscriber, actor, steps, context, env}`; an email body that
 * is a JSON document is block-editor (Maily) content, rendered to HTML after Liquid; any other
 * email body is HTML rendered by Liquid alone; the step's layout, when it names one, goes around
 * the body (the layout's `{{ content }}` variable); the platform's branding footer goes before
 * `</body>`; script elements are removed unless `disableOutputSanitization`.
 *
 * The renderers are loaded on the first preview, so that neither the emulator's start nor the
 * provider (which never imports this) pays for React.
 */
import { randomUUID } from "node:crypto";
import type { JsonObject } from "./records";

type Liquid = import("liquidjs").Liquid;
/** A block-editor node: `{type, attrs?, content?, marks?, text?}` (Maily's JSONContent, as JSON). */
interface Node { type?: string; attrs?: Record<string, unknown>; content?: Node[]; marks?: Node[]; text?: string; [k: string]: unknown }

/** The variables a template sees. */
export type RenderVariables = JsonObject;

let engines: { html: Liquid; json: Liquid } | undefined;
/**
 * Two LiquidJS engines as the service's (non-strict variables and filters, objects written as
 * JSON): one for text and HTML, one for templates that are JSON text (a block-editor document
 * rendered as a string), whose output is escaped to stay inside a JSON string, as the service
 * escapes every payload string before it renders one.
 */
function liquid(): { html: Liquid; json: Liquid } {
  if (!engines) {
    const { Liquid: Engine } = require("liquidjs") as typeof import("liquidjs");
    const text = (v: unknown) => (v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));
    engines = {
      html: new Engine({ strictVariables: false, strictFilters: false, outputEscape: text }),
      json: new Engine({ strictVariables: false, strictFilters: false, outputEscape: (v: unknown) => JSON.stringify(text(v)).slice(1, -1) }),
    };
  }
  return engines;
}

/** A template rendered with `vars` (Liquid syntax errors throw: the caller answers an empty preview). */
export function renderText(template: string, vars: RenderVariables): Promise<string> {
  return liquid().html.parseAndRender(template, vars);
}

/** Every string inside `value` rendered as a template (the framework renders all of a step's controls). */
async function renderDeep(value: unknown, vars: RenderVariables): Promise<unknown> {
  if (typeof value === "string") return renderText(value, vars);
  if (Array.isArray(value)) return Promise.all(value.map((v) => renderDeep(v, vars)));
  if (value && typeof value === "object") {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[k] = await renderDeep(v, vars);
    return out;
  }
  return value;
}

/** The fields each channel's preview has (spec/openapi.json `*RenderOutput`), in the service's order. */
const OUTPUT_FIELDS: Record<string, readonly string[]> = {
  in_app: ["subject", "body", "avatar", "primaryAction", "secondaryAction", "redirect", "data"],
  sms: ["body"],
  chat: ["body"],
  push: ["subject", "body"],
};

/** Finds a layout's stored email control values by identifier, or undefined when there is none. */
export type LayoutLookup = (layoutId: string) => { body: string; editorType: string } | undefined;

/**
 * The `preview` of one step: email `{subject, body}`; in-app, SMS, chat and push their render
 * outputs; other kinds their rendered controls without `skip`. Throws when a template does not
 * compile or the step's layout is gone (production then answers an empty preview). `rawVariable`:
 * an email body's variable whose value in `vars` is HTML to insert as is (a layout's preview).
 */
export async function renderStep(
  type: string, controls: JsonObject, vars: RenderVariables, layoutOf: LayoutLookup, opts: { rawVariable?: string } = {},
): Promise<JsonObject> {
  if (type === "email") return renderEmail(controls, vars, layoutOf, opts.rawVariable);
  const { skip: _skip, ...rendered } = (await renderDeep(controls, vars)) as JsonObject;
  const fields = OUTPUT_FIELDS[type];
  if (!fields) return rendered;
  return Object.fromEntries(fields.filter((f) => rendered[f] !== undefined).map((f) => [f, rendered[f]]));
}

async function renderEmail(controls: JsonObject, vars: RenderVariables, layoutOf: LayoutLookup, rawVariable?: string): Promise<JsonObject> {
  const { body, subject, layoutId, disableOutputSanitization } = controls;
  // A missing body is handed back as is: the framework's validation reports it, not the renderer.
  if (typeof body !== "string" || !body) return { subject, body };
  const layout = typeof layoutId === "string" && layoutId ? layoutOf(layoutId) : undefined;
  if (typeof layoutId === "string" && layoutId && !layout) throw new Error(`layout ${layoutId} not found`);
  const stepHtml = cleanStepHtml(await renderEmailBody(body, vars, { bare: !!layout, rawVariable }));
  const html = layout ? await renderEmailBody(layout.body, { ...vars, [LAYOUT_CONTENT_VARIABLE]: stepHtml.replace(/\n/g, "") }, { rawVariable: LAYOUT_CONTENT_VARIABLE }) : stepHtml;
  const branded = withBranding(html.replace(/<p([^>]*)>\s+<\/p>/g, "<p$1></p>"));
  const renderedSubject = typeof subject === "string" ? await renderText(subject, vars) : subject;
  return disableOutputSanitization === true ? { subject: renderedSubject, body: branded } : { subject: sanitize(renderedSubject), body: sanitize(branded) };
}

/** The variable of a layout that the step's body fills (the service's LAYOUT_CONTENT_VARIABLE). */
export const LAYOUT_CONTENT_VARIABLE = "content";

/**
 * An email body rendered to HTML: a JSON document as block-editor content (the service decides by
 * whether the body parses as JSON, not by `editorType`), anything else as Liquid HTML.
 * `bare`: without the document's wrapping tags, for a body that goes inside a layout (the
 * service's fork of the renderer has an option for it; the published renderer does not, so the
 * inside of its `<body>` is taken). `rawVariable`: a block variable whose value is HTML inserted
 * as is (the layout's content), where any other variable is text.
 */
export async function renderEmailBody(body: string, vars: RenderVariables, opts: { bare?: boolean; rawVariable?: string } = {}): Promise<string> {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return renderText(body, vars);
  }
  const html = await renderBlock(doc as Node, vars, opts.rawVariable);
  if (!opts.bare) return html;
  const m = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html);
  return m ? m[1]! : html;
}

/** What the service strips from a step's HTML before a layout takes it: doctype and comments. */
function cleanStepHtml(html: string): string {
  return html.replace(/<!DOCTYPE.*?>/g, "").replace(/<!--[\s\S]*?-->/g, "");
}

/**
 * The platform's branding footer, before the last `</body>` (appended to a body without one, unless
 * it is empty), as an organization that has not removed branding gets it. The markup is the
 * emulator's own; a test can find it by its `data-platform-branding` attribute.
 */
export const BRANDING_HTML =
  '<table data-platform-branding="" align="center" width="100%" role="presentation" style="margin-top:16px"><tr>' +
  '<td style="text-align:center;font-size:12px;color:#99a0ae;font-family:sans-serif;padding:8px">Sent with the notification platform</td></tr></table>';

function withBranding(html: string): string {
  const at = html.toLowerCase().lastIndexOf("</body>");
  if (at < 0) return html.trim() ? html + BRANDING_HTML : html;
  return html.slice(0, at) + BRANDING_HTML + html.slice(at);
}

/** The part of the service's output sanitising the emulator reproduces: no script elements. */
function sanitize<T>(value: T): T {
  return (typeof value === "string" ? value.replace(/<script\b[\s\S]*?<\/script\s*>/gi, "") : value) as T;
}

// ------------------------------------------------------------------------------------------------
// Block-editor documents

/** Per node type, the attributes that may hold a variable and the flag that says they do. */
function variableAttributes(type: string | undefined): [attr: string, flag: string][] {
  const common: [string, string][] = [["id", "id"], ["showIfKey", "showIfKey"], ["each", "each"]];
  if (type === "button") return [["text", "isTextVariable"], ["url", "isUrlVariable"], ...common];
  if (type === "image" || type === "inlineImage") return [["src", "isSrcVariable"], ["externalLink", "isExternalLinkVariable"], ...common];
  if (type === "link") return [["href", "isUrlVariable"], ...common];
  return common;
}
/** The flags that are the attribute itself, left as they are once wrapped. */
const SELF_FLAGS = new Set(["id", "showIfKey", "each"]);

/** Quotes a fallback for a Liquid `default` filter. */
const liquidString = (s: string) => `'${s.replace(/'/g, "\\'")}'`;

/**
 * Each variable attribute as a Liquid output (`{{ payload.name | default: 'x' }}`, its `aliasFor`
 * first), its flag cleared: the service's "wrap Maily in Liquid" step.
 */
function wrapInLiquid(node: Node): Node {
  const out: Node = { ...node };
  if (node.content) out.content = node.content.map(wrapInLiquid);
  if (node.marks) out.marks = node.marks.map(wrapInLiquid);
  if (node.attrs) {
    const attrs = { ...node.attrs };
    const { fallback, aliasFor } = node.attrs;
    for (const [attr, flag] of variableAttributes(node.type)) {
      const value = node.attrs[attr];
      if (!node.attrs[flag] || typeof value !== "string") continue;
      const name = typeof aliasFor === "string" && aliasFor ? aliasFor : value;
      attrs[attr] = `{{ ${name}${typeof fallback === "string" && fallback ? ` | default: ${liquidString(fallback)}` : ""} }}`;
      if (!SELF_FLAGS.has(flag)) attrs[flag] = false;
    }
    out.attrs = attrs;
  }
  return out;
}

const truthy = (s: string) => {
  const v = s.toLowerCase().trim();
  if (v === "false" || v === "null" || v === "undefined") return false;
  try {
    return Boolean(JSON.parse(v));
  } catch {
    return Boolean(v);
  }
};

/** `{{ payload.items.name }}` → `{{ payload.items[2].name }}` inside a repeat over `{{ payload.items }}`. */
function indexed(text: string, each: string, index: number): string {
  const path = each.replace(/\{\{|\}\}/g, "").trim();
  const m = /\{\{\s*(.*?)\s*\}\}/.exec(text);
  if (!m) return text;
  const [expr, ...filters] = m[1]!.split("|").map((p) => p.trim());
  if (expr!.includes("[")) return text;
  const next = expr!.replace(path, `${path}[${index}]`);
  return filters.length ? `{{ ${next} | ${filters.join(" | ")} }}` : `{{ ${next} }}`;
}

/** The children of a repeat node, once per item, with each variable indexed. */
function repeatChildren(nodes: Node[], each: string, index: number): Node[] {
  return nodes.map((node) => {
    const n: Node = { ...node, attrs: node.attrs ? { ...node.attrs } : undefined };
    if (n.type === "variable" && typeof n.attrs?.id === "string") return { ...n, type: "text", text: indexed(n.attrs.id, each, index) };
    for (const a of ["text", "url", "src", "externalLink", "href"]) {
      if (typeof n.attrs?.[a] === "string") n.attrs[a] = indexed(n.attrs[a] as string, each, index);
    }
    if (n.content?.length) n.content = repeatChildren(n.content, each, index);
    if (n.marks?.length) n.marks = repeatChildren(n.marks, each, index);
    return n;
  });
}

/**
 * Show-if conditions evaluated (a node whose condition is false is dropped), repeat nodes expanded
 * per item, variables turned into the text of their Liquid output: breadth first, as the service
 * walks the document.
 */
async function transform(root: Node, vars: RenderVariables): Promise<Node> {
  const queue: { node: Node; parent?: Node }[] = [{ node: root }];
  while (queue.length) {
    const { node, parent } = queue.shift()!;
    const show = node.attrs?.showIfKey;
    if (show !== undefined && show !== null) {
      const shown = truthy(await renderText(String(show), vars));
      delete node.attrs!.showIfKey;
      if (!shown) {
        if (parent?.content) parent.content = parent.content.filter((n) => n !== node);
        continue;
      }
    }
    if ((node.type === "repeat" || node.type === "for") && typeof node.attrs?.each === "string") {
      const each = node.attrs.each;
      const items = JSON.parse((await renderText(each, vars)) || "[]") as unknown;
      if (!Array.isArray(items)) throw new Error(`Iterable "${each}" is not an array`);
      const limit = typeof node.attrs.iterations === "number" && node.attrs.iterations > 0 ? node.attrs.iterations : items.length;
      const expanded = items.slice(0, limit).flatMap((_, i) => repeatChildren(node.content ?? [], each, i));
      if (parent?.content) {
        const at = parent.content.indexOf(node);
        parent.content = [...parent.content.slice(0, at), ...expanded, ...parent.content.slice(at + 1)];
      } else node.content = expanded;
    }
    if (node.type === "variable" && typeof node.attrs?.id === "string") {
      node.type = "text";
      node.text = node.attrs.id;
    }
    for (const child of node.content ?? []) queue.push({ node: child, parent: node });
  }
  return root;
}

/** Replaces every variable node named `name` with a text node holding `marker`. */
function markVariable(node: Node, name: string, marker: string): Node {
  if (node.type === "variable" && node.attrs?.id === name) return { type: "text", text: marker };
  return node.content ? { ...node, content: node.content.map((n) => markVariable(n, name, marker)) } : node;
}

/** A block-editor document to HTML: wrapped in Liquid, transformed, Liquid-rendered as JSON text, then Maily. */
async function renderBlock(doc: Node, vars: RenderVariables, rawVariable?: string): Promise<string> {
  // The raw variable's HTML cannot pass through the renderer (it would be escaped as text): a marker
  // takes its place and the HTML replaces the marker afterwards.
  const marker = `layout-content-${randomUUID()}`;
  const marked = rawVariable ? markVariable(doc, rawVariable, marker) : doc;
  const transformed = await transform(wrapInLiquid(structuredClone(marked)), vars);
  const rendered = JSON.parse(await liquid().json.parseAndRender(JSON.stringify(transformed), vars)) as Node;
  const { render } = require("@maily-to/render") as typeof import("@maily-to/render");
  const html = await render(rendered as Parameters<typeof render>[0]);
  return rawVariable ? html.split(marker).join(String(vars[rawVariable] ?? "")) : html;
}
