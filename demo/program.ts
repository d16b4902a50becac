/**
 * The demo stack: email, SMS, chat and push integrations, two workflows using several step kinds,
 * subscriber credentials, and outputs read back with the functions.
 */
import * as pulumi from "@pulumi/pulumi";
import * as notify from "pulumi-notify";

/** Declares the demo's resources; returns the stack outputs. */
export async function demoProgram(): Promise<Record<string, unknown>> {
  const cfg = new pulumi.Config("demo");
  const secret = (key: string, fallback: string) => cfg.getSecret(key) ?? pulumi.secret(fallback);

  const email = new notify.Integration("sendgrid", {
    identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true, primary: true,
    credentials: { apiKey: secret("sendgridKey", "SG.demo-key"), from: "no-reply@example.com", senderName: "Example" },
  });
  const sms = new notify.Integration("twilio", {
    identifier: "twilio-main", name: "Twilio", providerId: "twilio", channel: "sms", active: true, primary: true,
    credentials: { accountSid: "AC-demo", token: secret("twilioToken", "demo-token"), from: "+15550000000" },
  });
  const slack = new notify.Integration("slack", {
    identifier: "slack-main", name: "Slack", providerId: "slack", channel: "chat", active: true,
  });
  const fcm = new notify.Integration("fcm", {
    identifier: "fcm-main", name: "Firebase Cloud Messaging", providerId: "fcm", channel: "push", active: true,
    credentials: { serviceAccount: secret("fcmServiceAccount", "{\"project_id\":\"demo\"}") },
  });

  const welcome = new notify.Workflow("welcome", {
    workflowId: "welcome", name: "Welcome", active: true, tags: ["onboarding"],
    steps: [
      // A push, not an in-app step: no program can connect an Inbox, so an in-app step would warn once
      // at create that none is (docs/workflows.md), and the demo's first screen has no warning.
      { name: "Push", type: "push", controlValues: { subject: "Welcome", body: "Hi {{subscriber.firstName}}, welcome aboard!" } },
      { name: "Wait", type: "delay", controlValues: { type: "regular", amount: 1, unit: "hours" } },
      { name: "Email", type: "email", controlValues: { subject: "Welcome to Example", body: "<p>Glad you are here.</p>", editorType: "html" } },
    ],
  }, { dependsOn: [email, fcm] });
  const digest = new notify.Workflow("activity-digest", {
    workflowId: "activity-digest", name: "Activity digest", active: true, severity: "low", tags: ["engagement"],
    steps: [
      { name: "Collect", type: "digest", controlValues: { amount: 30, unit: "minutes", digestKey: "{{payload.projectId}}" } },
      { name: "Chat", type: "chat", controlValues: { body: "{{step.events.length}} new updates in your project" } },
      { name: "SMS", type: "sms", controlValues: { body: "You have new activity" } },
    ],
  }, { dependsOn: [slack, sms] });

  const aliceSlack = new notify.SubscriberCredentials("alice-slack", {
    // The integration's identifier as an output: the engine creates the (active) integration
    // first, which the service needs before it takes a subscriber's credentials.
    subscriberId: "alice", providerId: "slack", integrationIdentifier: slack.identifier,
    credentials: { webhookUrl: secret("aliceSlackHook", "https://hooks.slack.example/services/T000/B000/demo") },
  });
  const bobPush = new notify.SubscriberCredentials("bob-fcm", {
    subscriberId: "bob", providerId: "fcm", integrationIdentifier: fcm.identifier,
    credentials: { deviceTokens: ["demo-device-token-1", "demo-device-token-2"] },
  });

  const alice = notify.getSubscriberOutput({ subscriberId: "alice" });
  const active = await notify.getIntegrations({ activeOnly: true });
  return {
    integrations: active.integrations.map((i) => `${i.channel}:${i.identifier}`).sort(),
    welcomeSteps: welcome.steps.apply((s) => s.map((x) => `${x.stepId} (${x.type})`)),
    digestStatus: digest.status,
    aliceEmail: alice.email,
    credentials: [aliceSlack.id, bobPush.id],
  };
}
