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
        { name: "Email", type: "email", controlValues: { subject: "Welcome to Example, {{subscriber.firstName}}!", body: "<p>Glad you are here.</p>", editorType: "html" } },
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
    // v2 asks for a review by email three days after the shipping email.
    v2: {
      name: "Order shipped",
      tags: ["orders"],
      severity: "medium",
      steps: [
        { name: "Email", type: "email", controlValues: { subject: "Your order {{payload.orderId}} has shipped", body: "<p>It is on its way.</p>", editorType: "html" } },
        { name: "Wait", type: "delay", controlValues: { type: "regular", amount: 3, unit: "days" } },
        { name: "Review", type: "email", controlValues: { subject: "How is your order {{payload.orderId}}?", body: "<p>Tell us what you think of it.</p>", editorType: "html" } },
      ],
    },
  },
};
