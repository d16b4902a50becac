/**
 * One program for every environment. Each stack (dev, prod) has its own API key, sender address,
 * channels and workflow versions in Pulumi.<stack>.yaml; see workflows.ts for the versions.
 */
import * as pulumi from "@pulumi/pulumi";
import * as notify from "pulumi-notify";
import { WORKFLOWS } from "./workflows";

/** The `releases` config: workflow name to version, each checked against workflows.ts. */
function releases(config: pulumi.Config): Record<string, string> {
  const wanted = config.requireObject<Record<string, unknown>>("releases");
  if (!wanted || typeof wanted !== "object" || Array.isArray(wanted)) {
    throw new Error(`config releases must map workflow names to versions, e.g. { welcome: v1 }; got ${JSON.stringify(wanted)}`);
  }
  for (const [workflow, version] of Object.entries(wanted)) {
    const versions = WORKFLOWS[workflow];
    if (!versions) throw new Error(`config releases.${workflow}: no such workflow; known: ${Object.keys(WORKFLOWS).join(", ")}`);
    if (typeof version !== "string" || !versions[version]) {
      throw new Error(`config releases.${workflow}: ${JSON.stringify(version)} is not a version of it; known: ${Object.keys(versions).join(", ")}`);
    }
  }
  return wanted as Record<string, string>;
}

export function environment() {
  const config = new pulumi.Config();
  const smsEnabled = config.getBoolean("sms") ?? false;

  const email = new notify.Integration("email", {
    identifier: "email-main",
    name: "SendGrid",
    providerId: "sendgrid",
    channel: "email",
    active: true,
    primary: true,
    credentials: {
      apiKey: config.requireSecret("sendgridApiKey"),
      from: config.require("emailFrom"),
      senderName: "Example",
    },
  });
  const channels: pulumi.Resource[] = [email];
  if (smsEnabled) {
    channels.push(new notify.Integration("sms", {
      identifier: "sms-main",
      name: "Twilio",
      providerId: "twilio",
      channel: "sms",
      active: true,
      credentials: {
        accountSid: config.require("twilioAccountSid"),
        token: config.requireSecret("twilioToken"),
        from: config.require("twilioFrom"),
      },
    }));
  }

  const deployed: Record<string, pulumi.Output<string>> = {};
  for (const [workflowId, version] of Object.entries(releases(config))) {
    const def = WORKFLOWS[workflowId]![version]!;
    const wf = new notify.Workflow(workflowId, {
      workflowId,
      name: def.name,
      active: true,
      tags: [...(def.tags ?? []), `release:${version}`],
      severity: def.severity,
      steps: def.steps,
    }, { dependsOn: channels });
    deployed[workflowId] = pulumi.interpolate`${version} (${wf.status})`;
  }

  return { environment: pulumi.getStack(), smsEnabled, workflows: deployed };
}
