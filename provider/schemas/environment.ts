/**
 * Environment and environment-variable shapes (spec/openapi.json `EnvironmentResponseDto`,
 * `EnvironmentVariableResponseDto` and their request bodies; production-notes.md, Third pass §1
 * and §2). Responses read leniently; request bodies are strict.
 */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";

/** One API key of an environment as the list shows it: `key` in clear (the create response's is encrypted, `nvsk.`). */
export const EnvironmentApiKey = z.looseObject({
  key: z.string(),
  hash: z.string().optional(),
  _userId: z.string().optional(),
});

/** An environment as the service returns it. */
export const Environment = z.looseObject({
  _id: z.string(),
  name: z.string(),
  _organizationId: z.string(),
  identifier: z.string(),
  type: z.string().nullable().optional(),
  color: z.string().optional(),
  _parentId: z.string().nullable().optional(),
  slug: z.string().optional(),
  apiKeys: z.array(EnvironmentApiKey).optional(),
});
export type Environment = z.infer<typeof Environment>;

/**
 * An environment as getEnvironments returns it: its fields and its usable API keys (the clear
 * ones the list gives; none where the caller may not read them).
 */
export const EnvironmentResult = z.object({
  _id: z.string().describe("The environment's id."),
  name: z.string().describe("Its name."),
  identifier: z.string().describe("The service-generated identifier."),
  type: z.string().nullable().optional().describe("`dev` (Development) or `prod` (Production and every custom environment)."),
  color: z.string().optional().describe("Its hex colour."),
  _parentId: z.string().nullable().optional().describe("Its parent environment, if it has one."),
  slug: z.string().optional().describe("The URL slug."),
  apiKeys: z.array(z.string()).describe("Its API keys, usable as `notify:apiKey` (secret); empty where the caller may not read them."),
}).meta({ id: "EnvironmentResult", description: "An environment of the organisation, with its API keys." });

/** Body of `POST /v1/environments`, as the document has it. */
export type CreateEnvironmentBody = RequestBody<"EnvironmentsControllerV1_createEnvironment">;

/** Body of `PUT /v1/environments/{environmentId}` (partial: only the fields sent are written). */
export type UpdateEnvironmentBody = RequestBody<"EnvironmentsControllerV1_updateMyEnvironment">;

/** One environment's value of a variable. */
export const EnvironmentVariableValue = z.looseObject({ _environmentId: z.string(), value: z.string() });

/** An environment variable as the service returns it: a secret one's values masked. */
export const EnvironmentVariable = z.looseObject({
  _id: z.string(),
  _organizationId: z.string(),
  key: z.string(),
  type: z.string(),
  isSecret: z.boolean(),
  values: z.array(EnvironmentVariableValue),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
});
export type EnvironmentVariable = z.infer<typeof EnvironmentVariable>;

/** Body of `POST /v1/environment-variables`, as the document has it. */
export type CreateEnvironmentVariableBody = RequestBody<"EnvironmentVariablesController_createEnvironmentVariable">;

/** Body of `PATCH /v1/environment-variables/{variableKey}`: values are merged by environment. */
export type UpdateEnvironmentVariableBody = RequestBody<"EnvironmentVariablesController_updateEnvironmentVariable">;

/** What the service shows instead of every value of a secret variable: eight U+2022. */
export const SECRET_MASK = "\u2022".repeat(8);
