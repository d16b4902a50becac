/** Layout shapes of production-notes.md (Third pass §3) and spec/openapi.json: the layout, its list page, create and update bodies. */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import { JsonObject, Origin, User, openEnum } from "./common";

/** The editors a layout body is written for. */
export const LAYOUT_EDITOR_TYPES = ["html", "block"] as const;

/** A layout's email control values as the service returns them (open). */
export const LayoutEmailControlsRead = z.looseObject({ body: z.string(), editorType: openEnum(LAYOUT_EDITOR_TYPES) });

/** A layout as returned by create, get and update. */
export const Layout = z.looseObject({
  _id: z.string(),
  layoutId: z.string(),
  slug: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  isTranslationEnabled: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: User.nullable().optional(),
  origin: Origin.optional(),
  type: z.string().optional(),
  variables: JsonObject.nullable().optional(),
  controls: z.looseObject({
    dataSchema: JsonObject.optional(),
    uiSchema: JsonObject.optional(),
    values: z.looseObject({ email: LayoutEmailControlsRead.optional() }).optional(),
  }).optional(),
});
export type Layout = z.infer<typeof Layout>;

/** A layout as `GET /v2/layouts` lists it (no control values). */
export const LayoutSummary = z.looseObject({
  _id: z.string(),
  layoutId: z.string(),
  slug: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  isTranslationEnabled: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  origin: Origin.optional(),
  type: z.string().optional(),
}).meta({ id: "LayoutSummary", description: "A layout as listed: its ids, name and whether it is the environment's default." });
export type LayoutSummary = z.infer<typeof LayoutSummary>;

/** One page of `GET /v2/layouts`. */
export const LayoutListPage = z.looseObject({ layouts: z.array(LayoutSummary), totalCount: z.number() });
export type LayoutListPage = z.infer<typeof LayoutListPage>;

/** Body of `POST /v2/layouts` (control values are not taken here), as the document has it. */
export type CreateLayoutBody = RequestBody<"LayoutsController_create">;

/** Body of `PUT /v2/layouts/{layoutId}`: control values omitted are kept, null clears them. */
export type UpdateLayoutBody = RequestBody<"LayoutsController_update">;
