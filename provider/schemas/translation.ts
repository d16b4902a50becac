/** Translation shapes of spec/openapi.json (`TranslationResponseDto`, `TranslationGroupDto`). */
import { z } from "zod";
import { JsonObject } from "./common";

/** The kinds of resource that hold translations (the contract's `resourceType`). */
export const TRANSLATION_RESOURCE_TYPES = ["workflow", "layout"] as const;

/** One locale's translation of a workflow or layout, as the service returns it. */
export const Translation = z.looseObject({
  resourceId: z.string().describe("The workflow's workflowId or the layout's layoutId."),
  resourceType: z.string().describe("`workflow` or `layout`."),
  locale: z.string().describe("The locale code (`fr_FR`)."),
  content: JsonObject.describe("The translation content: keys to text, as the templates name them."),
  createdAt: z.string().optional().describe("When the translation was created (ISO 8601)."),
  updatedAt: z.string().optional().describe("When the translation was last changed (ISO 8601)."),
});
export type Translation = z.infer<typeof Translation>;

/** A translation as getTranslations lists it. */
export const TranslationResult = Translation.meta({ id: "TranslationResult", description: "One locale's translation of a workflow or layout." });

/** A resource's translation group: which locales it has. */
export const TranslationGroup = z.looseObject({
  resourceId: z.string(),
  resourceType: z.string(),
  resourceName: z.string().optional(),
  locales: z.array(z.string()),
  outdatedLocales: z.array(z.string()).optional(),
});
export type TranslationGroup = z.infer<typeof TranslationGroup>;
