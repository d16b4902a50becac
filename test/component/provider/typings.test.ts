/**
 * The package's type declarations as a user's compiler reads them, with every TypeScript the
 * project pins (test/helpers/typescript.ts: 5.x and 6.x): a program importing `pulumi-notify` by
 * name type-checks with the library check on (dist/provider/index.d.ts and all it references),
 * under the tsconfig the exporter writes; and a misspelt step kind is reported against the kinds
 * allowed, a misspelt control against its own kind's controls, a misspelt input against the
 * kind's inputs (the compilers word it alike). The declarations are the built ones (`dist/`, so
 * this layer builds first): what users' compilers read.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TSCONFIG_OPTIONS } from "../../../export/render/typescript";
import { WORKFLOW_STEP_KINDS } from "../../../provider/schemas";
import { linkProjectDir } from "../../../scripts/workspace";
import { runTsc, TYPESCRIPTS } from "../../helpers/typescript";

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
// A class is a type, its outputs are Outputs, and it is a class at run time.
const news: notify.Topic = new notify.Topic("news", { key: "news", subscribers: pulumi.output(["alice"]) });
export const newsKey: pulumi.Output<string> = news.key;
export const isTopic = (r: unknown): r is notify.Topic => r instanceof notify.Topic && notify.Topic.isInstance(r);
`;

/** Mistakes the compiler must refuse, each in a file of its own beside the program. */
const MISTAKES = {
  "kind-typo.ts": `import * as notify from "pulumi-notify";
new notify.Workflow("typo", { workflowId: "t", name: "T", steps: [{ name: "Mail", type: "emial", controlValues: { subject: "s", body: "b" } }] });
`,
  "control-typo.ts": `import * as notify from "pulumi-notify";
new notify.Workflow("typo", { workflowId: "t", name: "T", steps: [{ name: "Chat", type: "chat", controlValues: { bdy: "b" } }] });
`,
  "input-typo.ts": `import * as notify from "pulumi-notify";
new notify.Topic("typo", { key: "k", nmae: "N" });
`,
};

describe("the package's declarations with each pinned TypeScript", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "notify-typings-"));
  beforeAll(() => {
    linkProjectDir(dir);
    writeFileSync(path.join(dir, "index.ts"), PROGRAM);
    for (const [name, text] of Object.entries(MISTAKES)) writeFileSync(path.join(dir, name), text);
    // The exported project's options, with the declarations checked too. One compilation per
    // TypeScript (the library check is most of its time); each diagnostic names its file.
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({
      compilerOptions: { ...TSCONFIG_OPTIONS, skipLibCheck: false, noEmit: true }, files: ["index.ts", ...Object.keys(MISTAKES)],
    }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const ts of TYPESCRIPTS) {
    describe(`TypeScript ${ts.version}`, () => {
      let output = "";
      /** The diagnostics of `file`, each with its continuation lines. */
      const diagnostics = (file: string) => output.split(/\n(?=\S)/).filter((d) => d.startsWith(`${file}(`));
      beforeAll(() => {
        output = runTsc(ts, ["-p", dir], dir).output;
      });

      it("type-checks a program importing pulumi-notify, the package's declarations included", () => {
        // Every diagnostic is one of the mistakes: none in the program, none in a declaration file.
        expect(output.split(/\n(?=\S)/).filter((d) => d.trim() && !Object.keys(MISTAKES).some((f) => d.startsWith(`${f}(`)))).toEqual([]);
      });

      it("reports a misspelt step kind once, naming it and every kind allowed", () => {
        const errors = diagnostics("kind-typo.ts");
        expect(errors).toHaveLength(1);
        expect(errors[0]).toContain(`Type '"emial"' is not assignable to type`);
        for (const kind of WORKFLOW_STEP_KINDS) expect(errors[0]).toContain(`"${kind}"`);
        expect(errors[0]).toContain(`Did you mean '"email"'?`);
      });

      it("reports a misspelt control against the controls of the step's own kind", () => {
        const errors = diagnostics("control-typo.ts");
        expect(errors).toHaveLength(1);
        // The chat controls (body, editorType), not those of the union's last member (http_request's method and url).
        expect(errors[0]).toMatch(/'bdy' does not exist in type '\{ skip\?: [^']*body\?: [^']*editorType\?: InputOf<"block" \| "text"/);
        expect(errors[0]).not.toContain("http_request");
      });

      it("reports a misspelt input against the kind's inputs", () => {
        const errors = diagnostics("input-typo.ts");
        expect(errors).toHaveLength(1);
        expect(errors[0]).toContain(`'nmae' does not exist in type`);
        expect(errors[0]).toContain("name?: InputOf<string>");
      });
    });
  }
});
