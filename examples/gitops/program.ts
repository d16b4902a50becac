/**
 * The notification setup a GitHub Actions workflow keeps in sync, in two parts:
 * - notify.generated.ts, written by `notify-export` and rewritten by the workflow's `pull` job
 *   (`notify-export --update .`): what people edit in the dashboard, the incident workflow's
 *   content, and the integrations it sends through, as the service holds them;
 * - this file, written by hand: what the stack owns and the service never shows, the SendGrid
 *   API key and sender (production hides integration credentials, so no export can declare
 *   them), and the ops team's subscriber (taken over when it exists, made on an empty
 *   environment) with its Slack webhook.
 * The connection comes from NOTIFY_API_URL and NOTIFY_API_KEY; provider secrets from stack config.
 */
import * as pulumi from "@pulumi/pulumi";
import * as notify from "pulumi-notify";

/** The integration of notify.generated.ts whose credentials this stack sets. */
const EMAIL_INTEGRATION = "email-main";

export function gitops() {
  const config = new pulumi.Config();

  // The generated declarations are notify-export's to rewrite, so the credentials are added to
  // the integration as it is registered rather than written into that file. The transformation
  // must exist before the declarations run, hence the require below instead of an import.
  pulumi.runtime.registerStackTransformation((r) => {
    if (!(r.resource instanceof notify.Integration) || r.props.identifier !== EMAIL_INTEGRATION) return undefined;
    return { props: { ...r.props, credentials: { apiKey: config.requireSecret("sendgridApiKey"), from: config.require("emailFrom") } }, opts: r.opts };
  });
  // The generated file orders nothing: on an environment that does not hold them yet, a workflow
  // created before the integrations its steps send through would warn that they are missing.
  // Each workflow waits for the integrations declared before it (the file declares them first).
  const integrations: pulumi.Resource[] = [];
  pulumi.runtime.registerStackTransformation((r) => {
    if (r.resource instanceof notify.Integration) integrations.push(r.resource);
    if (!(r.resource instanceof notify.Workflow)) return undefined;
    return { props: r.props, opts: { ...r.opts, dependsOn: [...integrations] } };
  });
  const declared = require("./notify.generated") as typeof import("./notify.generated");

  // The subscriber the webhook belongs to: adopt takes over the one the application made, and
  // creates it on an environment that has none yet.
  const ops = new notify.Subscriber("ops-team", { subscriberId: config.require("opsSubscriber"), adopt: true });
  const opsSlack = new notify.SubscriberCredentials("ops-slack", {
    // Its output, so the engine makes the subscriber first.
    subscriberId: ops.subscriberId,
    providerId: "slack",
    // The active integration's identifier as an output, so the engine creates it first.
    integrationIdentifier: declared.slackOps.identifier,
    credentials: { webhookUrl: config.requireSecret("opsSlackWebhook") },
  });

  const incident = declared.incidentOpened;
  return { workflowId: incident.workflowId, incidentSteps: incident.steps.apply((s) => s.length), opsCredentials: opsSlack.id };
}
