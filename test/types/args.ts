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
new SubscriberCredentials("c", { subscriberId: "s", providerId: "slack", credentials: { webhookUrl: "https://x" } });
void getSubscribers();
// @ts-expect-error subscriberId required
void getSubscriberOutput({});
void [s, d, st];
