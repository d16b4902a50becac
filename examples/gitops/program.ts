/**
 * The notification setup a GitHub Actions workflow keeps in sync: a primary email integration,
 * a Slack integration, an incident workflow and the ops team's Slack webhook.
 * The connection comes from NOTIFY_API_URL and NOTIFY_API_KEY; provider secrets from stack config.
 */
import * as pulumi from "@pulumi/pulumi";
import * as notify from "pulumi-notify";

export function gitops() {
  const config = new pulumi.Config();

  const email = new notify.Integration("email", {
    identifier: "email-main",
    name: "SendGrid",
    providerId: "sendgrid",
    channel: "email",
    active: true,
    primary: true,
    credentials: { apiKey: config.requireSecret("sendgridApiKey"), from: config.require("emailFrom") },
  });
  const slack = new notify.Integration("slack", {
    identifier: "slack-ops",
    name: "Slack (ops)",
    providerId: "slack",
    channel: "chat",
    active: true,
  });

  const incident = new notify.Workflow("incident", {
    workflowId: "incident-opened",
    name: "Incident opened",
    active: true,
    severity: "high",
    tags: ["ops"],
    steps: [
      { name: "Chat", type: "chat", controlValues: { body: ":rotating_light: {{payload.title}} ({{payload.severity}})" } },
      { name: "Batch", type: "digest", controlValues: { amount: 15, unit: "minutes", digestKey: "{{payload.service}}" } },
      { name: "Email", type: "email", controlValues: { subject: "Incidents in the last 15 minutes", body: "<p>{{step.events.length}} incidents</p>", editorType: "html" } },
    ],
  }, { dependsOn: [email, slack] });

  const opsSlack = new notify.SubscriberCredentials("ops-slack", {
    subscriberId: config.require("opsSubscriber"),
    providerId: "slack",
    // The active integration's identifier as an output, so the engine creates it first.
    integrationIdentifier: slack.identifier,
    credentials: { webhookUrl: config.requireSecret("opsSlackWebhook") },
  });

  return { workflowId: incident.workflowId, incidentSteps: incident.steps.apply((s) => s.length), opsCredentials: opsSlack.id };
}
