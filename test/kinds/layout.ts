/** The Layout kind, as the tests and the bench see it. */
import fc from "fast-check";
import { opt, text, slug, strip } from "./generate";
import { ok, without, type Apply, type KindDescriptor, type Obj } from "./descriptor";

/** A layout body of each editor, valid by the service's checks: a whole HTML document or a block document, each with the content variable. */
const layoutEmail = fc.oneof(
  text(0, 40).map((t) => ({ editorType: "html", body: `<html><head></head><body><p>${t.replace(/[<>{}]/g, "")}</p>{{ content }}</body></html>` })),
  text(0, 40).map((t) => ({
    editorType: "block",
    body: JSON.stringify({ type: "doc", content: [
      { type: "paragraph", content: t ? [{ type: "text", text: t }] : [] },
      { type: "paragraph", content: [{ type: "variable", attrs: { id: "content", label: null, fallback: null, required: false } }] },
    ] }),
  })),
);

/** Layout inputs; `suffix` makes the layoutId unique to the run. */
export const layoutInputs = (suffix: string) => fc.record({
  layoutId: slug.map((s) => `${s}-${suffix}`),
  name: text(1, 128),
  isTranslationEnabled: opt(fc.boolean()),
  controlValues: opt(fc.oneof(fc.record({ email: layoutEmail }), fc.constant({}))),
}, { requiredKeys: ["layoutId", "name"] }).map(strip);

const HTML = "<html><body>{{ content }}</body></html>";
const lay = (over: Obj) => ({ layoutId: "bad", name: "Bad", ...over });
const lemail = (email: Obj) => lay({ controlValues: { email } });

export const layout: KindDescriptor<"Layout"> = {
  kind: "Layout",
  inputs: layoutInputs,
  setup: null,
  prepare: null,
  // The service's update takes no layoutId (UpdateLayoutDto of spec/openapi.json).
  replaceOnChange: ["layoutId"],
  exact: [],
  handEdits: (i, _mode, add) => {
    // The service's PUT needs the name; control values left out stay as they are.
    const put = (body: Obj): Apply => (emu, id) => ok(emu.api("PUT", `/v2/layouts/${encodeURIComponent(id)}`, { name: i.name, ...body }), "hand edit put layout");
    add("name", "renamed", () => put({ name: `${String(i.name)} (edited)`.slice(-128) }));
    add("isTranslationEnabled", "toggled", () => put({ isTranslationEnabled: !i.isTranslationEnabled }));
    const email = (i.controlValues as { email?: { body: string; editorType: string } } | undefined)?.email;
    if (email) {
      const body = email.editorType === "html" ? email.body.replace("<body>", "<body><p>edited by hand</p>") : JSON.stringify({ type: "doc", content: [...JSON.parse(email.body).content, { type: "paragraph", content: [{ type: "text", text: "edited by hand" }] }] });
      add("controlValues", "body edited", () => put({ controlValues: { email: { ...email, body } } }));
    }
  },
  deletePath: (_i, id) => `/v2/layouts/${encodeURIComponent(id)}`,
  undeletable: "the first layout of an environment is its default, which the service never deletes",
  // The default layout stays on the service (destroy only forgets it).
  remains: (state, declared) => state.layouts!.filter((x) => !x.deleted && !x.isDefault && declared.some((d) => d.layoutId === x.identifier)),
  adopt: {
    seed: async (emu) => {
      await ok(emu.api("POST", "/v2/layouts", { layoutId: "brand", name: "Brand" }), "seed");
      await ok(emu.api("PUT", "/v2/layouts/brand", { name: "Brand", controlValues: { email: { body: HTML, editorType: "html" } } }), "seed");
    },
    equal: { layoutId: "brand", name: "Brand", controlValues: { email: { body: HTML, editorType: "html" } } },
    reads: ["GET /v2/layouts/{layoutId}"],
    differing: { layoutId: "brand", name: "Brand 2", controlValues: { email: { body: HTML, editorType: "html" } } },
    writes: ["PUT /v2/layouts/{layoutId}"],
  },
  // POST /v2/layouts ignores control values (production-notes.md, Third pass §3): declared ones are a
  // PUT of their own. GET one reads it; a rename is one PUT (answered whole); a delete one DELETE.
  floor: {
    of: (i) => ({ create: i.controlValues !== undefined ? 2 : 1, read: 1, update: 1, delete: 1 }),
    change: (i) => ({ ...i, name: `${String(i.name)} (renamed)` }),
    listing: null,
  },
  badInput: [
    ["missing layoutId", without(lay({}), "layoutId"), /layoutId: is required/],
    ["layout name over 128 characters", lay({ name: "n".repeat(129) }), /name: must be at most 128 characters/],
    ["layout editor type unknown", lemail({ body: HTML, editorType: "mjml" }), /controlValues\.email\.editorType: must be one of "html", "block"/],
    ["html layout body that is not a whole document", lemail({ body: "<p>{{ content }}</p>", editorType: "html" }), /controlValues\.email\.body: an html layout body must be a whole HTML document: it lacks <html/],
    ["html layout body without the content variable", lemail({ body: "<html><body>x</body></html>", editorType: "html" }), /controlValues\.email\.body: an html layout body must contain the content variable/],
    ["block layout body that is not a block document", lemail({ body: "<html></html>", editorType: "block" }), /controlValues\.email\.body: a block layout body must be a stringified block-editor document/],
    ["layout email without a body", lemail({ editorType: "html" }), /controlValues\.email\.body: is required/],
    ["misspelt layout control", lay({ controlValues: { emial: {} } }), /controlValues.*emial/],
  ],
  stack: { max: 1 },
  exportSoak: { max: 2, unique: (l) => l.layoutId },
  bench: {
    per: 20,
    args: (i) => ({
      layoutId: `bench-layout-${i}`, name: `Bench ${i}`,
      controlValues: { email: { editorType: "html", body: `<html><body><div>Bench ${i}</div>{{content}}</body></html>` } },
    }),
  },
  /** The environment's first layout, hence its default: destroy leaves it (`remains` leaves it out). */
  scenario: { declared: { layoutId: "scenario-frame", name: "Scenario frame" } },
  openapiCases: {
    "POST /v2/layouts": (c) => c.call(201, "/v2/layouts", { layoutId: "case-layout", name: "Case" }),
    "GET /v2/layouts": (c) => c.call(200, "/v2/layouts?limit=10"),
    "GET /v2/layouts/{layoutId}": (c) => c.call(200, "/v2/layouts/base"),
    "PUT /v2/layouts/{layoutId}": (c) => c.call(200, "/v2/layouts/base", { name: "Base", controlValues: { email: { body: "<html><body><div>{{content}}</div></body></html>", editorType: "html" } } }),
    "DELETE /v2/layouts/{layoutId}": async (c) => {
      await c.api("POST", "/v2/layouts", { layoutId: "doomed", name: "Doomed" });
      return c.call(204, "/v2/layouts/doomed");
    },
  },
  // Create (the environment's first layout, its default), create with control values, read,
  // update, adopt, an email step naming one, delete; getLayouts.
  requests: {
    run: async ({ moduleOf, created, client, fns }) => {
      const layout = moduleOf("layout");
      const workflow = moduleOf("workflow");
      const frame = await created(layout, { layoutId: "frame", name: "Frame" });
      const brand = await created(layout, {
        layoutId: "brand", name: "Brand", isTranslationEnabled: false,
        controlValues: { email: { body: "<html><body>{{ content }}</body></html>", editorType: "html" } },
      });
      await layout.provider.read(brand.id, brand.outs);
      await layout.provider.update(brand.id, brand.outs, { ...brand.inputs, name: "Brand 2" });
      await client.layouts.create({ layoutId: "existing-layout", name: "Existing" });
      const adopted = await created(layout, { layoutId: "existing-layout", name: "Adopted", adopt: true });
      const framed = await created(workflow, {
        workflowId: "framed", name: "Framed", steps: [{ name: "Email", type: "email", controlValues: { subject: "S", body: "B", layoutId: "brand" } }],
      });
      await fns.getLayouts({ query: "b", orderBy: "name", orderDirection: "ASC", maxResults: 10 });
      return async () => {
        await workflow.provider.delete(framed.id, framed.outs);
        for (const r of [brand, adopted, frame]) await layout.provider.delete(r.id, r.outs);
      };
    },
    // The environment's default layout (its first), which the service never deletes.
    refused: ["DELETE /v2/layouts/frame 409"],
  },
};
