/**
 * Quickstart: one email integration and one welcome workflow (an email, a day's wait, then a
 * second email with tips). Every step sends through the integration declared here, which the
 * workflow depends on, so the first `pulumi up` on an empty environment warns about nothing and
 * the workflow's status is ACTIVE.
 *
 *   pulumi config set notify:apiUrl https://api.example.com
 *   pulumi config set --secret notify:apiKey <your API key>
 *   pulumi config set --secret sendgridApiKey <your SendGrid key>
 *   pulumi up
 */
import * as pulumi from "@pulumi/pulumi";
import * as notify from "pulumi-notify";

export function quickstart() {
  const config = new pulumi.Config();

  const email = new notify.Integration("sendgrid", {
    identifier: "sendgrid",
    name: "SendGrid",
    providerId: "sendgrid",
    channel: "email",
    active: true,
    primary: true,
    credentials: {
      apiKey: config.requireSecret("sendgridApiKey"),
      from: config.get("emailFrom") ?? "no-reply@example.com",
      senderName: "Example",
    },
  });

  const welcome = new notify.Workflow("welcome", {
    workflowId: "welcome",
    name: "Welcome",
    active: true,
    steps: [
      { name: "Email", type: "email", controlValues: { subject: "Welcome to Example, {{subscriber.firstName}}!", body: "<p>Glad you are here.</p>", editorType: "html" } },
      { name: "Wait", type: "delay", controlValues: { type: "regular", amount: 1, unit: "days" } },
      { name: "Tips", type: "email", controlValues: { subject: "Three things to try", body: "<p>Here is how to get started.</p>", editorType: "html" } },
    ],
  }, { dependsOn: [email] });

  return {
    integrationId: email.integrationId,
    workflowId: welcome.workflowId,
    workflowStatus: welcome.status,
    steps: welcome.steps.apply((steps) => steps.map((s) => `${s.stepId} (${s.type})`)),
  };
}
