/**
 * `notify-export` against a "dashboard-made" environment (test/helpers/dashboard.ts), through the
 * real engine: the TypeScript export on both front ends (type-checked with tsc, compiled, run as
 * the inline program of a stack), then up with no write to the service but the secrets set from
 * config (counted exactly), an empty preview, a hand edit shown by `preview --refresh` and put
 * back by `up --refresh`. The emulator runs in production mode: credentials hidden, secret
 * variables masked; on the Business plan, which translations and domains need. The environment
 * holds the newer kinds too (a context, a workflow's two translations, a verified domain with a
 * route): taken over with no write, a translation's content changed in the dashboard is drift.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ExportModule from "../../export";
import type * as ProjectModule from "../../export/project";
import { createTestStack, nativeRequire, previewDiffs, ROOT, type TestStack } from "../helpers/pulumi";
import { API_KEY, type TestEmulator } from "../helpers/emulator";
import { DASHBOARD_DOMAIN, DASHBOARD_TRANSLATIONS, CHANNEL_TOKEN, SECRET_VARIABLE_VALUE, SLACK_HOOK, startDashboardEmulator } from "../helpers/dashboard";
import { usePlugin } from "../helpers/native";
import { editWorkflowByHand, linkProjectDir, serviceApi } from "../../scripts/workspace";
import { linkNodejsSdk } from "../../scripts/nodejs-sdk";

const { exportEnvironment } = nativeRequire("pulumi-notify/dist/export/index") as typeof ExportModule;
const { nextSteps } = nativeRequire("pulumi-notify/dist/export/project") as typeof ProjectModule;

const ENV = "dash";
const ENV_ID = `env_${ENV}`;
/** Values the service holds that no exported file may contain. */
const SECRET_VALUES = ["SG.dashboard-key", "whsec-dashboard", SECRET_VARIABLE_VALUE, SLACK_HOOK, CHANNEL_TOKEN, API_KEY];
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

/** The writes in a slice of the emulator's request log (its own controls left out). */
const writesOf = (log: { method: string; path?: string; route?: string }[]) =>
  log.filter((r) => r.method !== "GET" && !String(r.path ?? r.route).startsWith("/__emulator"));

/** Every file of a directory, by name. */
const filesOf = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));

describe("notify-export of a dashboard-made environment", () => {
  let emu: TestEmulator;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-export-"));
  const out = (name: string) => path.join(tmp, name);
  const connection = () => ({ apiUrl: emu.url, apiKey: API_KEY });

  beforeAll(async () => {
    emu = await startDashboardEmulator(ENV);
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("reads everything without writing, and writes the same bytes twice with no secret in any file", async () => {
    await emu.clearRequests();
    const lines: string[] = [];
    // One project name for both (by default each is named after its folder).
    const first = await exportEnvironment({ language: "typescript", out: out("ts-a"), project: "notify-same", connection: connection(), progress: (l) => lines.push(l) });
    await exportEnvironment({ language: "typescript", out: out("ts-b"), project: "notify-same", connection: connection() });
    expect(writesOf(await emu.requests())).toEqual([]);
    expect(filesOf(out("ts-a"))).toEqual(filesOf(out("ts-b")));
    expect(Object.keys(filesOf(out("ts-a")))).toEqual([".gitignore", "Pulumi.yaml", "README.md", "import.json", "index.ts", "notify.generated.ts", "package.json", "tsconfig.json"]);
    const kinds = first.model.resources.map((r) => `${r.kind}/${r.name}`);
    expect(kinds).toEqual([
      "Integration/sendgrid-main", "Integration/slack-alerts", "Layout/brand", "Layout/default-frame",
      "Workflow/order-shipped", "Workflow/welcome", "Translation/workflow-order-shipped-de_DE", "Translation/workflow-order-shipped-fr_FR",
      "Topic/news:daily", "EnvironmentVariable/API_TOKEN", "EnvironmentVariable/BASE_URL", "Context/tenant:acme", "Agent/support-bot", `Domain/${DASHBOARD_DOMAIN}`,
      "ChannelConnection/acme-slack", "ChannelEndpoint/alice-ops", "TopicSubscription/alice-express",
    ]);
    expect(lines.map((l) => l.split(":")[0])).toEqual([
      "environment", "integrations", "layouts", "workflows", "topics", "environment variables", "contexts", "translations", "agents", "domains",
      "channel connections", "channel endpoints", "topic subscriptions",
    ]);
    // The signing key (configurations) and the workspace's token are returned, so their values are known; the masked variable's is not.
    expect(first.model.secrets.map((s) => [s.key, s.value !== undefined])).toEqual([
      ["integration-sendgrid-main-configurations-inboundWebhookSigningKey", true],
      ["environment-variable-API-TOKEN-value", false],
      ["channel-connection-acme-slack-auth-accessToken", true],
    ]);
    const text = Object.values(filesOf(out("ts-a"))).join("\n");
    for (const secret of SECRET_VALUES) expect(text).not.toContain(secret);
    // The email step references the Layout resource, and the topic lists its 250 subscribers.
    expect(text).toContain("layoutId: brand.layoutId");
    // A translation names its workflow by the Workflow resource's output; its content is the service's document.
    expect(text).toContain(`resourceType: "workflow",\n  resourceId: orderShipped.workflowId,\n  locale: "fr_FR",`);
    expect(first.model.resources.find((r) => r.key === "Translation/workflow-order-shipped-fr_FR")!.inputs.content).toEqual(DASHBOARD_TRANSLATIONS.fr_FR);
    expect(first.model.resources.find((r) => r.kind === "Domain")!.inputs).toEqual({
      name: DASHBOARD_DOMAIN, data: { owner: "support-team" },
      routes: { support: { type: "webhook", data: { queue: "tier-1" } }, bot: { type: "agent", agentId: expect.objectContaining({ target: "Agent/support-bot", output: "identifier" }) } },
    });
    expect(first.model.skipped).toEqual([]);
    expect(JSON.stringify(first.model.resources.find((r) => r.kind === "Topic")!.inputs.subscribers)).toMatch(/sub-249/);
    const imports = JSON.parse(filesOf(out("ts-a"))["import.json"]!).resources;
    expect(imports).toContainEqual({ type: "notify:index:Layout", name: "brand", id: "brand" });
    expect(imports).toContainEqual({ type: "notify:index:Translation", name: "workflow-order-shipped-de_DE", id: "workflow/order-shipped/de_DE" });
    expect(imports).toContainEqual({ type: "notify:index:Context", name: "tenant:acme", id: "tenant:acme" });
    expect(imports).toContainEqual({ type: "notify:index:Domain", name: DASHBOARD_DOMAIN, id: DASHBOARD_DOMAIN });
  });

  /** Type-checks an exported TypeScript project with tsc, then compiles it to bin/index.js. */
  const compile = (dir: string) => {
    linkProjectDir(dir);
    linkNodejsSdk(dir);
    execFileSync(process.execPath, [TSC, "-p", dir], { cwd: dir, stdio: "pipe" });
    return path.join(dir, "bin/index.js");
  };

  /** Config of a stack of the exported program: the connection, and each secret (the masked one supplied). */
  const secretsConfig = (model: ExportModule.ExportResult["model"], project: string) => Object.fromEntries(model.secrets.map((s) => [
    `${project}:${s.key}`, { value: s.value ?? SECRET_VARIABLE_VALUE, secret: true },
  ]));

  for (const frontEnd of ["dynamic", "native"] as const) {
    describe(`the TypeScript export on the ${frontEnd} front end`, () => {
      let ts: TestStack;
      let result: ExportModule.ExportResult;
      afterAll(async () => { await ts?.cleanup(); });

      it("type-checks, and its first up takes every object over writing only the secret the service masks", async () => {
        const dir = out(`ts-run-${frontEnd}`);
        result = await exportEnvironment({ language: "typescript", frontEnd, out: dir, connection: connection(), subscribers: ["alice"] });
        expect(result.model.resources.find((r) => r.kind === "SubscriberCredentials")).toMatchObject({ key: "SubscriberCredentials/alice-slack-slack-alerts", id: "alice/slack/slack-alerts" });
        expect(readFileSync(path.join(dir, "notify.generated.ts"), "utf8")).toContain("integrationIdentifier: slackAlerts.identifier");
        const program = compile(dir);
        const project = `notify-${ENV}`;
        ts = await createTestStack({
          projectName: project,
          // Loaded afresh each run, the declarations module it imports included, as a new process would.
          program: async () => { for (const m of Object.keys(require.cache)) if (m.startsWith(path.dirname(program) + path.sep)) delete require.cache[m]; require(program); },
          config: { ...emu.stackConfig(), ...secretsConfig(result.model, project) },
        });
        if (frontEnd === "native") await usePlugin(ts);
        // The first preview: on the dynamic front end, every resource and the stack as a create (new to
        // the stack; the up adopts), as the next steps the exporter prints say; on the plugin, imports.
        const preview = await ts.stack.preview();
        const steps = nextSteps(result.model, "typescript", result.render).join("\n");
        if (frontEnd === "dynamic") {
          expect(preview.changeSummary).toEqual({ create: result.model.resources.length + 1 });
          expect(steps).toContain(`"+ ${preview.changeSummary.create} to create"`);
        } else {
          expect(preview.changeSummary).toMatchObject({ import: result.model.resources.length });
          expect(steps).toMatch(/pulumi preview .*import/);
        }
        await emu.clearRequests();
        const up = await ts.stack.up();
        expect(up.summary.result).toBe("succeeded");
        const writes = writesOf(await emu.requests()).map((r) => `${r.method} ${r.route ?? r.path}`);
        // The masked variable's value can only be written (the service cannot compare it): one PATCH.
        expect(writes).toEqual(["PATCH /v1/environment-variables/{variableKey}"]);
        const state = await emu.state();
        expect(state.environmentVariables.find((v) => v.key === "API_TOKEN").values).toEqual([{ _environmentId: ENV_ID, value: SECRET_VARIABLE_VALUE }]);
        // Every object of the model (the subscriber, its credentials and preferences, the translations,
        // the context, the agent, the domain, the channel connections and endpoints and the topic subscription among them) and
        // the stack; through the plugin, the masked variable is imported, then updated
        // with the value from config.
        const objects = result.model.resources.length;
        expect(up.summary.resourceChanges).toEqual(frontEnd === "native" ? { create: 1, import: objects, update: 1 } : { create: objects + 1 });
      });

      it("then previews with no changes, also with --refresh", async () => {
        await ts.stack.preview({ expectNoChanges: true });
        await ts.stack.preview({ expectNoChanges: true, refresh: true });
      });

      it("shows hand edits in preview --refresh and puts them back with up --refresh", async () => {
        const api = serviceApi(emu.url, API_KEY);
        await editWorkflowByHand(api, "welcome", (b) => ({ ...b, name: "Renamed in the dashboard" }));
        // A translation's content changed in the dashboard's translation editor.
        await api("POST", "/v2/translations", { resourceType: "workflow", resourceId: "order-shipped", locale: "fr_FR", content: { subject: "Changé à la main" } });
        const { diffs } = await previewDiffs(ts.stack, { refresh: true });
        expect(Object.keys(diffs).sort()).toEqual(["welcome", "workflow-order-shipped-fr_FR"]);
        expect(diffs.welcome!.op).toBe("update");
        expect(diffs["workflow-order-shipped-fr_FR"]).toMatchObject({ op: "update", keys: ["content"] });
        await ts.stack.up({ refresh: true });
        expect((await api("GET", "/v2/workflows/welcome")).name).toBe("Welcome");
        expect((await api("GET", "/v2/translations/workflow/order-shipped/fr_FR")).content).toEqual(DASHBOARD_TRANSLATIONS.fr_FR);
        await ts.stack.preview({ expectNoChanges: true, refresh: true });
      });
    });
  }
});
