/**
 * Quickstart: one email integration and one welcome workflow (in-app message, then an email).
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
      { name: "Inbox", type: "in_app", controlValues: { body: "Welcome, {{subscriber.firstName}}!" } },
      { name: "Email", type: "email", controlValues: { subject: "Welcome to Example", body: "<p>Glad you are here.</p>", editorType: "html" } },
    ],
  }, { dependsOn: [email] });

  return {
    integrationId: email.integrationId,
    workflowId: welcome.workflowId,
    workflowStatus: welcome.status,
    steps: welcome.steps.apply((steps) => steps.map((s) => `${s.stepId} (${s.type})`)),
  };
}
