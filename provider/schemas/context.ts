/** Context shapes of spec/openapi.json (`GetContextResponseDto`, `ListContextsResponseDto`). */
import { z } from "zod";
import { JsonObject } from "./common";

/** A context as the service returns it: its type, id and custom data. */
export const Context = z.looseObject({
  type: z.string().describe("The context type (`tenant`, `app`, ...)."),
  id: z.string().describe("The context's id within its type; the context key is `type:id`."),
  data: JsonObject.nullable().optional().describe("The context's custom data."),
  createdAt: z.string().optional().describe("When the context was created (ISO 8601)."),
  updatedAt: z.string().optional().describe("When the context was last changed (ISO 8601)."),
});
export type Context = z.infer<typeof Context>;

/** A context as getContexts lists it. */
export const ContextSummary = Context.meta({ id: "ContextSummary", description: "A context: its type, id, custom data and timestamps." });

/** One page of `GET /v2/contexts` (cursor pagination, not wrapped in the envelope). */
export const ContextListPage = z.looseObject({
  data: z.array(Context),
  next: z.string().nullable(),
  previous: z.string().nullable().optional(),
  totalCount: z.number().optional(),
  totalCountCapped: z.boolean().optional(),
});
export type ContextListPage = z.infer<typeof ContextListPage>;
