/**
 * Request bodies from the field tables, checked by the compiler against the contract's body types
 * (`npm test` runs `tsc -p tsconfig.typetest.json`): each `@ts-expect-error` line is a table whose
 * body would carry a name the operation's body lacks (an unused one fails the compile).
 */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import { defineResource, field, requestBody, type FieldFacts } from "../../provider/resources/fields";
import { TOPIC } from "../../provider/resources/topic";
import { CONTEXT } from "../../provider/resources/context";

declare function send<Op extends "TopicsController_upsertTopic" | "TopicsController_updateTopic" | "ContextsController_createContext">(body: RequestBody<Op>): void;
type CreateTopic = RequestBody<"TopicsController_upsertTopic">;
type UpdateTopic = RequestBody<"TopicsController_updateTopic">;

// The tables as they are: every name they send is in the contract's bodies.
const created: CreateTopic = requestBody(TOPIC, {}, "create");
const updated: UpdateTopic = requestBody(TOPIC, {}, "update");
const context: RequestBody<"ContextsController_createContext"> = requestBody(CONTEXT, {}, "create");
send<"TopicsController_upsertTopic">(requestBody(TOPIC, {}, "create"));

/** Topic's table with one fact changed. */
const topicWith = <N extends FieldFacts, K extends FieldFacts>(nameFacts: N, keyFacts: K) => defineResource({
  name: "Topic", module: "topic", doc: "A topic.", outputs: {},
  inputs: { key: field(z.string(), "The key.", keyFacts), name: field(z.string().optional(), "The name.", nameFacts) },
});
// @ts-expect-error a misspelt service name
const misnamed: CreateTopic = requestBody(topicWith({ api: "title" as const }, { createOnly: true as const }), {}, "create");
// @ts-expect-error the key is the update's path: sent in an update body unless createOnly
const keyInUpdate: UpdateTopic = requestBody(topicWith({}, { replaces: true as const }), {}, "update");
const keyOnCreate: CreateTopic = requestBody(topicWith({}, { replaces: true as const }), {}, "create");

export { created, updated, context, misnamed, keyInUpdate, keyOnCreate };
