/**
 * What `notify-export` tells its user to run next ({@link nextSteps}; printed by the CLI, written in
 * the project's README): install the dependencies, and how until the packages are published (the
 * artifacts of a checkout's release build, with the README's own commands, which docs/export.md
 * shows for each language: test/unit/scripts/gen-docs.test.ts); create a stack; give it
 * the connection (`notify:apiUrl`, `notify:apiKey`, or their variables) and the secrets; and what
 * the first preview shows: on the dynamic front end every resource and the stack as creates,
 * though the up adopts and writes nothing but the masked secrets (test/e2e/export.test.ts checks
 * that count against a real preview).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel, type RawEnvironment } from "../../../export/model";
import { configSetLines, forLanguage, INSTALL_VARIANTS, installLines, nextSteps, projectFiles } from "../../../export/project";
import { LANGUAGES, type FrontEnd, type Language } from "../../../export/render/common";
import { CONNECTION_SETTINGS } from "../../../provider/client/settings";
import { SECRET_MASK } from "../../../provider/schemas";
import { ROOT } from "../../helpers/pulumi";
import { installCommands, splitComment } from "../../../scripts/release";

const ENV = "env_a";
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string; version: string; bin: Record<string, string> };

/** An integration whose secret the service returns, a variable whose value it masks, a topic. */
const model = buildModel({
  environment: { _id: ENV, name: "Production EU" },
  integrations: [{
    _id: "i1", _environmentId: ENV, _organizationId: "org", name: "sg", identifier: "sg", providerId: "sendgrid", channel: "email",
    active: true, primary: false, conditions: [], deleted: false, credentials: { apiKey: "SG.returned" },
  }],
  workflows: [], layouts: [],
  topics: [{ topic: { _id: "t1", key: "news", name: "News", createdAt: "2026-01-01T00:00:00.000Z" }, subscribers: [] }],
  variables: [{ _id: "v1", _organizationId: "org", key: "TOKEN", type: "string", isSecret: true, values: [{ _environmentId: ENV, value: SECRET_MASK }] }],
} as unknown as RawEnvironment);
const opts = (frontEnd: FrontEnd) => ({ frontEnd, project: "notify-production-eu", packageVersion: pkg.version, pulumiVersion: "3.0.0" });
const frontEndOf = (language: Language): FrontEnd => (language === "typescript" ? "dynamic" : "native");

describe("the next steps of an export", () => {
  it("install the TypeScript project with npm, and until it is published from the tarball a checkout's release build writes", () => {
    const steps = nextSteps(model, "typescript", opts("dynamic")).join("\n");
    expect(steps).toMatch(/^npm install$/m);
    expect(steps).toContain("#    (cd /path/to/checkout && npm run release -- build)");
    expect(steps).toContain(`#    npm install /path/to/checkout/dist/release/${pkg.name}-${pkg.version}.tgz @pulumi/pulumi`);
    // The native front end's SDK, from the same build, and the plugin, which no release serves yet.
    const native = nextSteps(model, "typescript", opts("native")).join("\n");
    expect(native).toContain("#    npm install /path/to/checkout/dist/release/pulumi-notify-native-");
    expect(native).toContain(`#    pulumi plugin install resource notify ${pkg.version} --file /path/to/checkout/dist/release/`);
  });

  it("install the Python and Go projects from the checkout's wheel, SDK module and plugin until they are published", () => {
    const py = nextSteps(model, "python", opts("native")).join("\n");
    expect(py).toMatch(/^pip install -r requirements\.txt$/m);
    expect(py).toContain(`#    pip install /path/to/checkout/dist/release/pulumi_notify-${pkg.version}-py3-none-any.whl`);
    const go = nextSteps(model, "go", opts("native")).join("\n");
    expect(go).toMatch(/^go mod tidy$/m);
    expect(go).toMatch(/^# {4}go mod edit -replace \S+=\/path\/to\/checkout\/sdk\/go$/m);
    for (const text of [py, go]) expect(text).toContain(`#    pulumi plugin install resource notify ${pkg.version} --file`);
  });

  // One text: the README's commands for a checkout are the ones the release rehearsal runs.
  it("install before a release with the README's own commands (its \"Install and configure\" section), in every language", () => {
    const readme = installCommands().blocks[1]!.map(splitComment);
    const commands = readme.map((l) => l.command);
    // The README names the typed SDK's tarball beside the package's, in its npm line's comment.
    const npmLine = readme.find((l) => l.command.startsWith("npm install "))!;
    const native = /pulumi-notify-native-<version>\.tgz/.exec(npmLine.comment ?? "")?.[0];
    expect(native, "the README's npm line names the typed SDK's tarball").toBeDefined();
    for (const { language, frontEnd } of INSTALL_VARIANTS) {
      const lines = installLines(language, { frontEnd, packageVersion: "<version>" });
      const before = lines.slice(lines.findIndex((l) => l.includes("Until the packages")) + 1).map((l) => splitComment(l.replace(/^# {4}/, "")).command);
      expect(before.length, language).toBeGreaterThan(1);
      // The build, run in the checkout.
      expect(before[0]).toBe(`(cd /path/to/checkout && ${commands[0]})`);
      for (const c of before.slice(1)) {
        if (c.includes("pulumi-notify-native-")) expect(c).toBe(npmLine.command.replace(/pulumi-notify-<version>\.tgz/, native!));
        else expect(commands, `${language} ${frontEnd}`).toContain(c);
      }
    }
  });

  it("create a stack and give it the connection the export used, never the key", () => {
    const steps = nextSteps(model, "typescript", opts("dynamic"), { apiUrl: "https://eu.api.example.com", timeoutMs: 60_000 });
    expect(steps).toContain("pulumi stack init production-eu");
    expect(steps).toContain("pulumi config set notify:apiUrl https://eu.api.example.com");
    expect(steps.find((l) => l.startsWith("pulumi config set --secret notify:apiKey "))).toMatch(/<API key>/);
    expect(steps).toContain("pulumi config set notify:requestTimeoutMs 60000");
    // Or the variables of the required settings.
    for (const s of CONNECTION_SETTINGS.filter((c) => "required" in c && c.required)) expect(steps.join("\n")).toContain(s.env);
  });

  it("set every secret, with the values the service returned only when asked (the CLI's output, never a file)", () => {
    expect(nextSteps(model, "typescript", opts("dynamic"), {}, true)).toEqual(expect.arrayContaining(configSetLines(model, true)));
    const files = projectFiles(model, "typescript", opts("dynamic"));
    expect(files["README.md"]).toContain(configSetLines(model, false).join("\n"));
    expect(Object.values(files).join("\n")).not.toContain("SG.returned");
  });

  it("say that the first preview shows creates on the dynamic front end, and imports on the plugin, while the up writes only the masked secrets", () => {
    const masked = model.secrets.filter((s) => s.value === undefined).length;
    const dynamic = nextSteps(model, "typescript", opts("dynamic")).join("\n");
    expect(dynamic).toContain(`"+ ${model.resources.length + 1} to create"`);
    expect(dynamic).toContain(`only the ${masked} masked secret value`);
    for (const language of LANGUAGES.filter((l) => l !== "typescript")) {
      expect(nextSteps(model, language, opts(frontEndOf(language))).join("\n")).toMatch(/pulumi preview .*import/);
    }
  });
});

describe("the project an export writes", () => {
  // Two exports on one backend shared the project `notify-<environment>`, so the second `pulumi
  // stack init` failed and `pulumi stack ls` mixed them: the folder names the project now.
  it("is named after the folder it is written to, else after the environment", async () => {
    const { projectName } = await import("../../../export/index");
    expect(projectName("out/Acme Staging", "Development")).toBe("acme-staging");
    expect(projectName("/tmp/x/notify-prod", "Production")).toBe("notify-prod");
    expect(projectName("out/___", "Development")).toBe("notify-development");
  });

  it("keeps dependencies, builds and Python's environment out of git, in every language", () => {
    for (const language of LANGUAGES) {
      const files = projectFiles(forLanguage(model, language), language, opts(frontEndOf(language)));
      expect(files[".gitignore"]?.split("\n"), language).toEqual(expect.arrayContaining(["node_modules/", "venv/", "__pycache__/"]));
    }
  });
});

describe("a model for a language that cannot declare a resource", () => {
  // YAML reads a key `fn::...` as a function: the global preferences holding one are skipped, and
  // the workflow's preferences, which only come after them (no value of theirs), are kept without the dependsOn.
  it("keeps a resource that depended on the skipped one, without that dependsOn", () => {
    const prefs = (name: string, inputs: Record<string, unknown>, dependsOn?: string[]) =>
      ({ key: `SubscriberPreferences/${name}`, kind: "SubscriberPreferences" as const, name, id: name, inputs: inputs as never, ...(dependsOn ? { dependsOn } : {}) });
    const m = {
      environment: { id: ENV }, secrets: [], skipped: [],
      resources: [prefs("a-preferences", { subscriberId: "a", channels: { "fn::x": true } }), prefs("a-w-preferences", { subscriberId: "a", workflowId: "w" }, ["SubscriberPreferences/a-preferences"])],
    };
    const yaml = forLanguage(m, "yaml");
    expect(yaml.resources).toEqual([{ key: "SubscriberPreferences/a-w-preferences", kind: "SubscriberPreferences", name: "a-w-preferences", id: "a-w-preferences", inputs: { subscriberId: "a", workflowId: "w" } }]);
    expect(yaml.skipped.map((s) => s.name)).toEqual(["a-preferences"]);
    // Where both are declared, the dependsOn stays.
    expect(forLanguage(m, "typescript").resources[1]!.dependsOn).toEqual(["SubscriberPreferences/a-preferences"]);
  });
});
