/**
 * The notification setup a GitHub Actions workflow keeps in sync, in two parts:
 * - notify.generated.ts, written by `notify-export` and rewritten by the workflow's `pull` job
 *   (`notify-export --update .`): what people edit in the dashboard, the incident workflow's
 *   content, and the integrations it sends through, as the service holds them;
 * - this file, written by hand: what the stack owns and the service never shows, the SendGrid
 *   API key and sender (production hides integration credentials, so no export can declare
 *   them) and the ops team's Slack webhook.
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
  const declared = require("./notify.generated") as typeof import("./notify.generated");

  const opsSlack = new notify.SubscriberCredentials("ops-slack", {
    subscriberId: config.require("opsSubscriber"),
    providerId: "slack",
    // The active integration's identifier as an output, so the engine creates it first.
    integrationIdentifier: declared.slackOps.identifier,
    credentials: { webhookUrl: config.requireSecret("opsSlackWebhook") },
  });

  const incident = declared.incidentOpened;
  return { workflowId: incident.workflowId, incidentSteps: incident.steps.apply((s) => s.length), opsCredentials: opsSlack.id };
}
