/**
 * The Args, outputs and function types derived from the field tables, checked by the compiler
 * (`npm test` runs `tsc -p tsconfig.typetest.json`): what a program may write compiles, and each
 * `@ts-expect-error` line is a mistake the types must refuse (an unused one fails the compile).
 */
import * as pulumi from "@pulumi/pulumi";
import { Integration, Workflow, SubscriberCredentials, getSubscribers, getSubscriberOutput } from "../../provider";
const i = new Integration("a", { identifier: "x", providerId: "sendgrid", channel: "email", credentials: { apiKey: pulumi.output("k") }, conditions: [{ isNegated: false, type: "BOOLEAN", value: "AND", children: [] }] });
const s: pulumi.Output<string> = i.identifier;
const d: pulumi.Output<string | undefined> = i.deletedAt;
// @ts-expect-error channel is an enumeration
new Integration("b", { identifier: "x", providerId: "sendgrid", channel: "mail" });
// @ts-expect-error identifier is required
new Integration("c", { providerId: "sendgrid", channel: "email" });
// @ts-expect-error unknown credential key
new Integration("e", { identifier: "x", providerId: "sendgrid", channel: "email", credentials: { apiKee: "k" } });
const w = new Workflow("w", { workflowId: "w", name: "W", steps: [{ name: "a", type: "in_app", controlValues: { body: "b" } }] });
const st: pulumi.Output<{ stepId: string; databaseId: string }[]> = w.steps;
// @ts-expect-error step type
new Workflow("w2", { workflowId: "w", name: "W", steps: [{ name: "a", type: "inapp" }] });
// Control values are typed per step kind: each kind's own controls compile.
new Workflow("w3", { workflowId: "w", name: "W", steps: [
  { name: "e", type: "email", controlValues: { subject: "s", body: "b", editorType: "html" } },
  { name: "d", type: "delay", controlValues: { type: "regular", amount: 1, unit: "hours" } },
  { name: "h", type: "http_request", controlValues: { method: "POST", url: "https://example.com", continueOnFailure: true } },
] });
// @ts-expect-error a misspelt control of an email step
new Workflow("w4", { workflowId: "w", name: "W", steps: [{ name: "e", type: "email", controlValues: { subjet: "s", body: "b" } }] });
// The compiler narrows a step on its type (a literal, not a pulumi.Input): another kind's control is refused.
// @ts-expect-error an email subject on a chat step
new Workflow("w5", { workflowId: "w", name: "W", steps: [{ name: "c", type: "chat", controlValues: { subject: "s" } }] });
// Every field of a step but its type may be a pulumi.Input, and so may the list of steps.
new Workflow("w7", { workflowId: "w", name: "W", steps: [{ name: pulumi.output("e"), type: "email", controlValues: { subject: pulumi.output("s"), body: "b" } }] });
new Workflow("w8", { workflowId: "w", name: "W", steps: pulumi.output([{ name: "i", type: "in_app" as const, controlValues: { body: "b" } }]) });
// @ts-expect-error a control's value of the wrong type
new Workflow("w6", { workflowId: "w", name: "W", steps: [{ name: "d", type: "delay", controlValues: { amount: "one", unit: "hours" } }] });
new SubscriberCredentials("c", { subscriberId: "s", providerId: "slack", credentials: { webhookUrl: "https://x" } });
void getSubscribers();
// @ts-expect-error subscriberId required
void getSubscriberOutput({});
void [s, d, st];
