/** The Translation kind, as the tests and the bench see it. */
import fc from "fast-check";
import type { TestEmulator } from "../helpers/emulator";
import { strip, jsonObject } from "./generate";
import { ok, without, type KindDescriptor, type Obj, type OpenapiContext } from "./descriptor";

/** A workflow with translation on, for the OpenAPI cases. */
const GREET = { name: "Greet", isTranslationEnabled: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] };

/** A workflow `workflowId` with translation on and its fr_FR translation (set-up of an OpenAPI case, not validated). */
async function translated(c: OpenapiContext, workflowId: string): Promise<void> {
  await c.api("POST", "/v2/workflows", { ...GREET, workflowId });
  await c.api("POST", "/v2/translations", { resourceId: workflowId, resourceType: "workflow", locale: "fr_FR", content: { hi: "Salut" } });
}

/** The workflow a translation of `translationInputs(suffix)` belongs to; {@link createTranslationTarget} makes it. */
export const translationTarget = (suffix: string) => `tr-${suffix}`;

/** Creates the workflow translations are generated for (a 409 for one that exists is ignored). */
export async function createTranslationTarget(emu: TestEmulator, workflowId: string): Promise<void> {
  await emu.api("POST", "/v2/workflows", { workflowId, name: "Translated", isTranslationEnabled: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "{{t.hello}}" } }] });
}

/** A translation of the suffix's workflow: a locale by the service's rule and content a JSON object. */
export const translationInputs = (suffix: string) => fc.record({
  resourceType: fc.constant("workflow" as const),
  resourceId: fc.constant(translationTarget(suffix)),
  locale: fc.constantFrom("en_US", "fr_FR", "de_DE", "pt_BR", "zh_Hans_CN", "es"),
  content: jsonObject,
}).map(strip);

const tr = (over: Obj) => ({ resourceType: "workflow", resourceId: "welcome", locale: "fr_FR", content: { hello: "Bonjour" }, ...over });

export const translation: KindDescriptor<"Translation"> = {
  kind: "Translation",
  inputs: translationInputs,
  setup: null,
  // Its workflow is made outside the stack (a stack's own workflows change under the oracle's edits).
  prepare: (emu, inputs) => createTranslationTarget(emu, String(inputs.resourceId)),
  // A translation is addressed by resource and locale (every path names them); the service's
  // POST replaces the content whole (e2e/v2/create-translation.e2e-ee.ts).
  replaceOnChange: ["resourceType", "resourceId", "locale"],
  exact: ["content"],
  handEdits: (i, _mode, add) => {
    // The dashboard saves a locale's whole document (the service's POST replaces the content).
    add("content", "one more key", () => (emu) => ok(emu.api("POST", "/v2/translations", {
      resourceType: i.resourceType, resourceId: i.resourceId, locale: i.locale, content: { ...(i.content as Obj), editedByHand: "yes" },
    }), "hand edit post translation"));
  },
  deletePath: (_i, id) => `/v2/translations/${id}`,
  undeletable: null,
  remains: (state, declared) => (state.translations ?? []).filter((t) => declared.some((d) => d.locale === t.locale)),
  adopt: {
    seed: async (emu) => {
      await ok(emu.api("POST", "/v2/workflows", { workflowId: "greet", name: "Greet", isTranslationEnabled: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] }), "seed");
      await ok(emu.api("POST", "/v2/translations", { resourceType: "workflow", resourceId: "greet", locale: "fr_FR", content: { hi: "Salut" } }), "seed");
    },
    equal: { resourceType: "workflow", resourceId: "greet", locale: "fr_FR", content: { hi: "Salut" } },
    reads: ["GET /v2/translations/{resourceType}/{resourceId}/{locale}"],
    differing: { resourceType: "workflow", resourceId: "greet", locale: "fr_FR", content: { hi: "Bonjour" } },
    writes: ["POST /v2/translations"],
  },
  // The service's POST is an upsert that would overwrite a translation made outside the stack, so a
  // create reads first (GET), then POSTs; GET one reads it; an update is one POST of the whole
  // content; a delete one DELETE.
  floor: {
    of: () => ({ create: 2, read: 1, update: 1, delete: 1 }),
    change: (i) => ({ ...i, content: { ...(i.content as Obj), changed: "oui" } }),
    listing: null,
  },
  badInput: [
    ["translation resource type unknown", tr({ resourceType: "topic" }), /resourceType: must be one of "workflow", "layout"/],
    ["translation locale with a dash", tr({ locale: "fr-FR" }), /locale: write "fr_FR": the service stores locales with _ between the parts/],
    ["translation locale not a locale", tr({ locale: "French" }), /locale: must be a locale code/],
    ["translation without content", without(tr({}), "content"), /content: is required/],
    ["translation content not an object", tr({ content: ["Bonjour"] }), /content: must be a record/],
  ],
  stack: { max: 1 },
  // Translations of one workflow made beside the generated ones, with translation on.
  exportSoak: { max: 2, unique: (t) => t.locale },
  bench: {
    per: 20,
    /** The French copy of workflow i of the mix, its id taken from the workflow's output. */
    args: (i, r) => ({
      resourceType: "workflow", resourceId: r.output("Workflow", i, "workflowId"), locale: "fr_FR",
      content: { hello: `Bonjour ${i}`, subject: `Banc ${i}` },
    }),
  },
  /** Its workflow made by `prepare`. */
  scenario: { declared: { resourceType: "workflow", resourceId: translationTarget("scenario"), locale: "de_DE", content: { hello: "Hallo" } } },
  openapiCases: {
    "POST /v2/translations": async (c) => {
      await c.api("POST", "/v2/workflows", { ...GREET, workflowId: "greet-post" });
      return c.call(200, "/v2/translations", { resourceId: "greet-post", resourceType: "workflow", locale: "fr_FR", content: { hi: "Salut" } });
    },
    "GET /v2/translations/group/{resourceType}/{resourceId}": async (c) => {
      await translated(c, "greet-group");
      return c.call(200, "/v2/translations/group/workflow/greet-group");
    },
    "GET /v2/translations/{resourceType}/{resourceId}/{locale}": async (c) => {
      await translated(c, "greet-one");
      return c.call(200, "/v2/translations/workflow/greet-one/fr_FR");
    },
    "DELETE /v2/translations/{resourceType}/{resourceId}/{locale}": async (c) => {
      await translated(c, "greet-doomed");
      return c.call(204, "/v2/translations/workflow/greet-doomed/fr_FR");
    },
    "DELETE /v2/translations/{resourceType}/{resourceId}": async (c) => {
      await translated(c, "greet-group-doomed");
      return c.call(204, "/v2/translations/workflow/greet-group-doomed");
    },
  },
  // The welcome workflow's fr_FR translation: create, read, update, delete; getTranslations.
  requests: {
    run: async ({ moduleOf, created, fns }) => {
      const translation = moduleOf("translation");
      const fr = await created(translation, { resourceType: "workflow", resourceId: "welcome", locale: "fr_FR", content: { hello: "Bonjour" } });
      await translation.provider.read(fr.id, fr.outs);
      await translation.provider.update(fr.id, fr.outs, { ...fr.inputs, content: { hello: "Salut" } });
      await fns.getTranslations({ resourceType: "workflow", resourceId: "welcome" });
      return async () => translation.provider.delete(fr.id, fr.outs);
    },
    // A translation's create looks first whether or not it adopts (the service's write is an upsert).
    refused: ["GET /v2/translations/workflow/welcome/fr_FR 404"],
  },
};
