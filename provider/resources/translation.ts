/**
 * Translation: one locale's content of a workflow or layout whose `isTranslationEnabled` is on.
 *
 *   check   no request
 *   diff    no request
 *   create  GET /v2/translations/{resourceType}/{resourceId}/{locale} (the POST is an upsert: an
 *           existing translation is taken over only with adopt, and written only when its content
 *           differs), else POST /v2/translations
 *   read    GET /v2/translations/{resourceType}/{resourceId}/{locale}
 *   update  POST /v2/translations (the service replaces the content whole)
 *   delete  DELETE /v2/translations/{resourceType}/{resourceId}/{locale} (a 404 counts as done:
 *           the service deletes a resource's translations with the resource)
 */
import { z } from "zod";
import { isNotFound } from "../client/errors";
import type { TranslationResourceType } from "../client/translations";
import { clientFor } from "../config";
import { JsonObject, SafeString, TRANSLATION_RESOURCE_TYPES, type Translation as ApiTranslation } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import { checkWith, topLevel, unknownKeyHint, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, stripUndefined, UNKNOWN } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, deleteIfPresent, failure, findIfPresent, gone, readIfPresent, readInputs } from "./lifecycle";

/**
 * A locale as the service stores it: a language, then region or script parts joined by `_`
 * (`en_US`, `zh_Hans_CN`). The service reads `-` as `_` (its e2e/v2/delete-translation.e2e-ee.ts),
 * so a `-` form would read back changed: it is refused with the `_` form to write.
 */
export const TRANSLATION_LOCALE = /^[a-z]{2,3}(?:_[A-Za-z0-9]{2,8})*$/;

const locale = z.string().min(1, { error: "must not be empty" }).superRefine((v, ctx) => {
  if (v === UNKNOWN || TRANSLATION_LOCALE.test(v)) return;
  const underscored = v.replace(/-/g, "_");
  ctx.addIssue({
    code: "custom",
    message: TRANSLATION_LOCALE.test(underscored) ? `write ${JSON.stringify(underscored)}: the service stores locales with _ between the parts`
      : "must be a locale code: a language, then region or script parts joined by _ (e.g. en_US, fr_FR, zh_Hans_CN)",
  });
});

/** The field table of a {@link Translation}. */
export const TRANSLATION = defineResource({
  name: "Translation",
  module: "translation",
  doc: "One locale's translation of a workflow or layout: a JSON document of keys to text, which the resource's templates name as " +
    "`{{t.key}}` when its `isTranslationEnabled` is on. The id, and the import id, is `resourceType/resourceId/locale` " +
    "(`workflow/welcome/fr_FR`). Deleting the workflow or layout deletes its translations on the service; turning its " +
    "`isTranslationEnabled` off keeps them.",
  inputs: {
    resourceType: field(z.enum(TRANSLATION_RESOURCE_TYPES), "`workflow` or `layout`. Changing it replaces the translation.", { replaces: true }),
    resourceId: field(SafeString(200).min(1, { error: "must not be empty" }),
      "The workflow's `workflowId` or the layout's `layoutId` (pass the resource's output, e.g. `welcome.workflowId`, so the translation is made after it). " +
      "Changing it replaces the translation.", { replaces: true }),
    locale: field(locale, "The locale code, parts joined by `_` (`en_US`, `fr_FR`, `zh_Hans_CN`). Changing it replaces the translation.", { replaces: true }),
    content: field(JsonObject, "The translation content, a JSON object of keys to text (nested objects allowed), compared whole: the service replaces it on every write.",
      { exact: true }),
    adopt: field(z.boolean().optional(), "Take over an existing translation of the same resource and locale instead of failing.", { control: true }),
  },
  outputs: {
    createdAt: output(z.string().optional(), "When the translation was created (ISO 8601)."),
  },
});

/** Inputs of a {@link Translation}. */
export type TranslationArgs = ArgsOf<typeof TRANSLATION>;
/** The state of a {@link Translation}: the service's view, each declared input as declared. */
export type TranslationState = StateOf<typeof TRANSLATION>;

type Inputs = z.infer<typeof TRANSLATION.schema>;
/** Create and update are one upsert, which takes the whole translation. */
type UpsertBody = RequestBody<"TranslationController_createTranslationEndpoint">;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

/** The resource id `resourceType/resourceId/locale`. */
export const translationId = (type: string, resourceId: string, loc: string) => `${type}/${resourceId}/${loc}`;

/** Splits an id `resourceType/resourceId/locale` (a workflowId holds no `/`); undefined when it is not of that form. */
export function parseTranslationId(id: string): { resourceType: TranslationResourceType; resourceId: string; locale: string } | undefined {
  const parts = id.split("/");
  if (parts.length !== 3 || !(TRANSLATION_RESOURCE_TYPES as readonly string[]).includes(parts[0]!) || !parts[1] || !parts[2]) return undefined;
  return { resourceType: parts[0] as TranslationResourceType, resourceId: parts[1], locale: parts[2] };
}

/** Maps the service's translation to outputs. */
export function toTranslationOutputs(t: ApiTranslation): Props {
  return stripUndefined({ ...serviceFields(TRANSLATION, t), createdAt: t.createdAt });
}

function outputsFor(t: ApiTranslation, declared: Props, keys: string[]): TranslationState {
  return stripUndefined({ ...toTranslationOutputs(t), ...controlInputs(declared, TRANSLATION.controlKeys), declaredKeys: keys }) as TranslationState;
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    return { inputs: stripUndefined(news), failures: checkWith(TRANSLATION.schema, news, topLevel(unknownKeyHint(Object.keys(TRANSLATION.inputs)))) };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(TRANSLATION, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, TRANSLATION.inputKeys);
    const api = clientFor().translations;
    const id = translationId(inputs.resourceType, inputs.resourceId, inputs.locale);
    // The service's POST replaces an existing translation silently: look first, so that one made
    // outside the stack is overwritten only when the program says so (adopt), and then only when
    // its content differs.
    const existing = await findIfPresent(() => api.get(inputs.resourceType, inputs.resourceId, inputs.locale))
      .catch((e: unknown) => { throw failure(`create translation ${id}`, e); });
    if (existing && !inputs.adopt) throw new Error(`Unable to create translation ${id}: it already exists. Set adopt: true to manage it with this stack`);
    if (existing) {
      return adoptExisting(`translation ${id}`, {
        id, compared: outputsFor(existing, raw, keys) as unknown as Props, inputs: raw, diff: provider.diff,
        update: async (olds) => (await provider.update(id, olds, raw)).outs,
      });
    }
    try {
      const t = await api.upsert(requestBody(TRANSLATION, inputs, "create"));
      return { id, outs: outputsFor(t, raw, keys) };
    } catch (err) {
      throw failure(`create translation ${id}`, err, isNotFound(err)
        ? `The ${inputs.resourceType} "${inputs.resourceId}" must exist first: pass its output (e.g. workflow.workflowId) as resourceId` : undefined);
    }
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    const parts = parseTranslationId(id);
    if (!parts) throw new Error(`Unable to read translation "${id}": the id must be resourceType/resourceId/locale (e.g. workflow/welcome/fr_FR)`);
    const live = await readIfPresent(`read translation ${id}`, () => clientFor().translations.get(parts.resourceType, parts.resourceId, parts.locale));
    // Gone, or its workflow or layout is (the service deletes translations with their resource).
    if (!live) return gone();
    const outs = outputsFor(live, props, keys);
    return { id, props: outs, inputs: readInputs(props, outs, keys, TRANSLATION.controlKeys) };
  },

  async update(id: string, _olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, TRANSLATION.inputKeys);
    try {
      const t = await clientFor().translations.upsert(requestBody(TRANSLATION, inputs, "update"));
      return { outs: outputsFor(t, news, keys) };
    } catch (err) {
      throw failure(`update translation ${id}`, err);
    }
  },

  async delete(id: string, props: Props) {
    const { resourceType, resourceId, locale: loc } = props as { resourceType: TranslationResourceType; resourceId: string; locale: string };
    await deleteIfPresent(`delete translation ${id}`, () => clientFor().translations.delete(resourceType, resourceId, loc));
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
