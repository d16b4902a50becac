/**
 * The package's type declarations as a user's compiler reads them, with every TypeScript the
 * project pins (test/helpers/typescript.ts: 5.x and 6.x): a program importing `pulumi-notify` by
 * name type-checks with the library check on (dist/provider/index.d.ts and all it references),
 * under the tsconfig the exporter writes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TSCONFIG_OPTIONS } from "../../export/render/typescript";
import { linkProjectDir } from "../../scripts/workspace";
import { runTsc, TYPESCRIPTS } from "../helpers/typescript";

/** A program using each front of the package: classes with inputs as values and as outputs, a function, the errors. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as notify from "pulumi-notify";
import type { WorkflowStepArgs } from "pulumi-notify";

const config = new pulumi.Config();
const brand = new notify.Layout("brand", { layoutId: "brand", name: "Brand" });
const sg = new notify.Integration("sg", {
  identifier: "sg", providerId: "sendgrid", channel: "email", credentials: { apiKey: config.requireSecret("k"), from: "a@example.com" },
});
const steps: WorkflowStepArgs[] = [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }];
new notify.Workflow("w", { workflowId: "w", name: pulumi.output("W"), steps: [
  ...steps,
  { name: pulumi.output("Mail"), type: "email", controlValues: { subject: "s", body: "b", layoutId: brand.layoutId } },
  { name: "Wait", type: "delay", controlValues: { type: "regular", amount: pulumi.output(5), unit: "minutes" } },
  { name: "Hook", type: "http_request", controlValues: { method: "POST", url: "https://example.com" } },
] });
new notify.Workflow("all", { workflowId: "all", name: "All", steps: pulumi.output(steps) });
new notify.SubscriberCredentials("c", { subscriberId: "alice", providerId: "sendgrid", integrationIdentifier: sg.identifier, credentials: { webhookUrl: "https://x" } });
export const alice = notify.getSubscriberOutput({ subscriberId: "alice" }).email;
export const refused = (e: unknown) => e instanceof notify.NotifyApiError && e.status === 401;
`;

describe("the package's declarations with each pinned TypeScript", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "notify-typings-"));
  beforeAll(() => {
    linkProjectDir(dir);
    writeFileSync(path.join(dir, "index.ts"), PROGRAM);
    // The exported project's options, with the declarations checked too.
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...TSCONFIG_OPTIONS, skipLibCheck: false, noEmit: true }, files: ["index.ts"] }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const ts of TYPESCRIPTS) {
    it(`type-checks a program importing pulumi-notify, the package's declarations included, with TypeScript ${ts.version}`, () => {
      expect(runTsc(ts, ["-p", dir], dir)).toEqual({ status: 0, output: "" });
    });
  }
});
