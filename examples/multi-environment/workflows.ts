/**
 * Every version of every workflow. A stack runs the versions its config names under `releases`;
 * a new version is tried in dev first, then promoted by naming it in Pulumi.prod.yaml.
 */
import type { WorkflowStepArgs } from "pulumi-notify";

export interface WorkflowVersion {
  name: string;
  tags?: string[];
  severity?: "high" | "medium" | "low" | "none";
  steps: WorkflowStepArgs[];
}

export const WORKFLOWS: Record<string, Record<string, WorkflowVersion>> = {
  welcome: {
    v1: {
      name: "Welcome",
      tags: ["onboarding"],
      steps: [
        { name: "Inbox", type: "in_app", controlValues: { body: "Welcome, {{subscriber.firstName}}!" } },
        { name: "Email", type: "email", controlValues: { subject: "Welcome to Example", body: "<p>Glad you are here.</p>", editorType: "html" } },
      ],
    },
  },
  "order-shipped": {
    v1: {
      name: "Order shipped",
      tags: ["orders"],
      severity: "medium",
      steps: [
        { name: "Email", type: "email", controlValues: { subject: "Your order {{payload.orderId}} has shipped", body: "<p>It is on its way.</p>", editorType: "html" } },
      ],
    },
    // v2 adds an in-app message before the email.
    v2: {
      name: "Order shipped",
      tags: ["orders"],
      severity: "medium",
      steps: [
        { name: "Inbox", type: "in_app", controlValues: { body: "Order {{payload.orderId}} has shipped" } },
        { name: "Email", type: "email", controlValues: { subject: "Your order {{payload.orderId}} has shipped", body: "<p>It is on its way.</p>", editorType: "html" } },
      ],
    },
  },
};
