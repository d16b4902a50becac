/**
 * The exporter and the newer kinds (Translation, Context, Domain): what the read asks of the
 * service (a stub client that records its calls), and the model and programs built from objects
 * as the service returns them: a translation's resourceId as its Workflow's or Layout's output,
 * contexts with their data, domains with their routes, agent routes listed as not declared, and
 * what the organisation's plan refuses listed as skipped.
 */
import { describe, expect, it } from "vitest";
import { buildModel, Ref, type RawEnvironment } from "../../../export/model";
import { readEnvironment } from "../../../export/read";
import { importFile, projectFiles } from "../../../export/project";
import { variableNames } from "../../../export/naming";
import { NotifyApiError, NotifyNotFoundError } from "../../../provider/client/errors";
import type { NotifyClient } from "../../../provider/client";

const ENV = "env_a";
const now = "2026-01-01T00:00:00.000Z";

const workflow = (workflowId: string, isTranslationEnabled: boolean, type = "in_app") => ({
  _id: `wf-${workflowId}`, workflowId, slug: workflowId, name: workflowId, description: "", tags: [], active: false, validatePayload: false,
  isTranslationEnabled, updatedAt: now, createdAt: now, origin: "external", preferences: {}, status: "ACTIVE", severity: "none",
  steps: [{ _id: "st-0", stepId: "inbox", name: "Inbox", type, controlValues: { body: "{{t.hello}}" } }],
});
const layout = (layoutId: string, isTranslationEnabled: boolean) => ({
  _id: `l-${layoutId}`, layoutId, slug: layoutId, name: layoutId, isDefault: false, isTranslationEnabled, createdAt: now, updatedAt: now,
  controls: { values: { email: { body: "<html><body>{{ content }}</body></html>", editorType: "html" } } },
});
const translation = (resourceType: string, resourceId: string, locale: string, content: Record<string, unknown>) =>
  ({ resourceType, resourceId, locale, content, createdAt: now, updatedAt: now });
const domain = (name: string, data?: Record<string, string>) => ({
  _id: `d-${name}`, name, status: "verified", mxRecordConfigured: true, createdAt: now, ...(data ? { data } : {}),
  expectedDnsRecords: [{ type: "MX", name, content: "inbound.example.com", ttl: "Auto", priority: 10 }],
});

/** An environment of the newer kinds, beside the workflows and layouts their translations belong to. */
function raw(): RawEnvironment {
  return {
    environment: { _id: ENV, name: "Alpha" },
    integrations: [], topics: [], variables: [],
    workflows: [workflow("welcome", true), workflow("agentic", true, "ai_agent")],
    layouts: [layout("brand", true)],
    translations: [
      translation("workflow", "welcome", "fr_FR", { hello: "Bonjour", cta: { label: "Voir" } }),
      translation("workflow", "welcome", "de_DE", { hello: "Hallo" }),
      translation("layout", "brand", "fr_FR", { footer: "Se désabonner" }),
      // The workflow the provider cannot declare: its translation names it by its workflowId.
      translation("workflow", "agentic", "fr_FR", { hello: "Salut" }),
    ],
    contexts: [
      { type: "tenant", id: "acme", data: { plan: "enterprise", limits: { seats: 10 } }, createdAt: now },
      { type: "app", id: "mobile", data: null, createdAt: now },
    ],
    domains: [
      { domain: domain("mail.example.com", { owner: "ops" }), routes: [
        { address: "support", type: "webhook", data: { team: "care" } }, { address: "*", type: "webhook", data: {} },
      ] },
      { domain: domain("agents.example.com"), routes: [
        { address: "sales", type: "webhook" }, { address: "bot", type: "agent", agentId: "6650a1b2c3d4e5f6a7b8c9d0" },
      ] },
    ],
    unread: [],
  } as unknown as RawEnvironment;
}

describe("the model of the newer kinds", () => {
  const model = buildModel(raw());
  const byKey = (key: string) => model.resources.find((r) => r.key === key)!;
  const ofKinds = (...kinds: string[]) => model.resources.filter((r) => kinds.includes(r.kind)).map((r) => [r.key, r.id]);

  it("declares translations after their workflows and layouts, contexts and domains, with the ids the provider's import takes", () => {
    expect(model.resources.map((r) => r.kind)).toEqual(["Layout", "Workflow", "Translation", "Translation", "Translation", "Translation", "Context", "Context", "Domain", "Domain"]);
    expect(ofKinds("Translation", "Context", "Domain")).toEqual([
      ["Translation/layout-brand-fr_FR", "layout/brand/fr_FR"],
      ["Translation/workflow-agentic-fr_FR", "workflow/agentic/fr_FR"],
      ["Translation/workflow-welcome-de_DE", "workflow/welcome/de_DE"],
      ["Translation/workflow-welcome-fr_FR", "workflow/welcome/fr_FR"],
      ["Context/app:mobile", "app:mobile"],
      ["Context/tenant:acme", "tenant:acme"],
      ["Domain/agents.example.com", "agents.example.com"],
      ["Domain/mail.example.com", "mail.example.com"],
    ]);
    expect(JSON.parse(importFile(model)).resources).toContainEqual({ type: "notify:index:Translation", name: "workflow-welcome-fr_FR", id: "workflow/welcome/fr_FR" });
    expect(JSON.parse(importFile(model)).resources).toContainEqual({ type: "notify:index:Context", name: "tenant:acme", id: "tenant:acme" });
    expect(JSON.parse(importFile(model)).resources).toContainEqual({ type: "notify:index:Domain", name: "mail.example.com", id: "mail.example.com" });
  });

  it("names a translation's workflow or layout by the exported resource's output, and by its id when that resource is not exported", () => {
    expect(byKey("Translation/workflow-welcome-fr_FR").inputs).toEqual({
      resourceType: "workflow", resourceId: new Ref("Workflow/welcome", "workflowId"), locale: "fr_FR", content: { hello: "Bonjour", cta: { label: "Voir" } },
    });
    expect(byKey("Translation/layout-brand-fr_FR").inputs.resourceId).toEqual(new Ref("Layout/brand", "layoutId"));
    expect(model.skipped.map((s) => `${s.kind}/${s.name}`)).toContain("Workflow/agentic");
    expect(byKey("Translation/workflow-agentic-fr_FR").inputs.resourceId).toBe("agentic");
  });

  it("declares a context's type, id and data (data the service holds none of as {})", () => {
    expect(byKey("Context/tenant:acme").inputs).toEqual({ type: "tenant", contextId: "acme", data: { plan: "enterprise", limits: { seats: 10 } } });
    expect(byKey("Context/app:mobile").inputs).toEqual({ type: "app", contextId: "mobile", data: {} });
  });

  it("declares a domain with its data and webhook routes, and one whose agent route names no agent of the environment without routes, saying why", () => {
    expect(byKey("Domain/mail.example.com").inputs).toEqual({
      name: "mail.example.com", data: { owner: "ops" }, routes: { "*": { type: "webhook" }, support: { type: "webhook", data: { team: "care" } } },
    });
    expect(byKey("Domain/agents.example.com").inputs).toEqual({ name: "agents.example.com", data: {} });
    const skip = model.skipped.find((s) => s.kind === "Domain")!;
    expect(skip.name).toBe("agents.example.com");
    expect(skip.reason).toMatch(/^its 2 routes are not declared \(so not managed: they stay as they are\): bot goes to agent 6650a1b2c3d4e5f6a7b8c9d0, which no agent of the environment has/);
  });

  // The service answers an agent route with the agent's `_id` (domain-route.utils.ts): the agents
  // read name it by identifier, and an exported agent by its output, so the engine makes it first.
  it("declares a domain's agent route by the agent's identifier, as the Agent resource's output", () => {
    const env = raw();
    env.agents = [{ _id: "6650a1b2c3d4e5f6a7b8c9d0", identifier: "support-bot", name: "Support bot", active: true, integrations: [] }];
    const m = buildModel(env);
    const routes = m.resources.find((r) => r.key === "Domain/agents.example.com")!.inputs.routes as Record<string, { agentId: unknown }>;
    expect(routes.bot!.agentId).toMatchObject({ target: "Agent/support-bot", output: "identifier" });
    expect(m.resources.map((r) => r.key).indexOf("Agent/support-bot")).toBeLessThan(m.resources.map((r) => r.key).indexOf("Domain/agents.example.com"));
    expect(m.skipped.filter((x) => x.kind === "Domain")).toEqual([]);
  });

  it("lists what the read could not read among the skipped", () => {
    const m = buildModel({ ...raw(), unread: [{ kind: "Domain", name: "(every domain)", reason: "402" }] });
    expect(m.skipped[0]).toEqual({ kind: "Domain", name: "(every domain)", reason: "402" });
  });

  it("is the same whatever order the service lists objects in", () => {
    const r = raw();
    r.translations!.reverse();
    r.contexts!.reverse();
    r.domains!.reverse();
    r.domains![1]!.routes.reverse();
    expect(buildModel(r)).toEqual(model);
  });

  it("gives every new resource a valid, unique variable name in each language", () => {
    const valid = { typescript: /^[A-Za-z_$][A-Za-z0-9_$]*$/, python: /^[a-z_][a-z0-9_]*$/, go: /^[A-Za-z_][A-Za-z0-9_]*$/ };
    for (const lang of ["typescript", "python", "go"] as const) {
      const names = variableNames(lang, model.resources);
      expect(new Set(names).size).toBe(names.length);
      for (const n of names) expect(n).toMatch(valid[lang]);
    }
    expect(variableNames("typescript", model.resources).slice(2, 4)).toEqual(["layoutBrandFrFr", "workflowAgenticFrFr"]);
    expect(variableNames("python", model.resources).slice(6)).toEqual(["app_mobile", "tenant_acme", "agents_example_com", "mail_example_com"]);
  });

  it("writes the references and the SDKs' types in each language", () => {
    const opts = (language: "typescript" | "python" | "go", frontEnd: "dynamic" | "native") => ({ frontEnd, project: "p", packageVersion: "1.0.0", pulumiVersion: "3.0.0" });
    const ts = projectFiles(model, "typescript", opts("typescript", "dynamic"))["notify.generated.ts"]!;
    expect(ts).toContain(`const workflowWelcomeFrFr = new notify.Translation("workflow-welcome-fr_FR", {\n  resourceType: "workflow",\n  resourceId: welcome.workflowId,`);
    expect(ts).toContain(`resourceId: "agentic",`);
    expect(ts).toContain(`const tenantAcme = new notify.Context("tenant:acme", {\n  type: "tenant",\n  contextId: "acme",`);
    expect(ts).toMatch(/new notify\.Domain\("mail\.example\.com", \{\n {2}name: "mail\.example\.com",[^]*"\*": \{\n {6}type: "webhook",\n {4}\},[^]*adopt: true,\n\}\);/);
    const tsNative = projectFiles(model, "typescript", opts("typescript", "native"))["notify.generated.ts"]!;
    expect(tsNative).toContain(`}, { import: "workflow/welcome/fr_FR" });`);
    const py = projectFiles(model, "python", opts("python", "native"))["notify_generated.py"]!;
    expect(py).toContain(`workflow_welcome_fr_fr = notify.Translation(\n    "workflow-welcome-fr_FR",\n    resource_type="workflow",\n    resource_id=welcome.workflow_id,`);
    expect(py).toContain(`    routes={\n        "*": notify.DomainRoutesArgs(\n            type="webhook",\n        ),`);
    expect(py).toContain(`opts=pulumi.ResourceOptions(import_="tenant:acme"),`);
    const go = projectFiles(model, "go", opts("go", "native"))["notify_generated.go"]!;
    expect(go).toContain(`welcome, err := notify.NewWorkflow(ctx, "welcome"`);
    expect(go).toContain(`\t\tResourceType: notify.TranslationResourceType("workflow"),\n\t\tResourceId: welcome.WorkflowId,`);
    expect(go).toContain(`\t\tRoutes: notify.DomainRoutesMap{\n\t\t\t"*": &notify.DomainRoutesArgs{\n\t\t\t\tType: notify.DomainRoutesType("webhook"),\n\t\t\t},`);
    expect(go).toContain(`\t\t\t"limits": pulumi.Map{\n\t\t\t\t"seats": pulumi.Float64(10),`);
    const readme = projectFiles(model, "typescript", opts("typescript", "dynamic"))["README.md"]!;
    expect(readme).toContain("- Translation: 4\n- Context: 2\n- Domain: 2");
    expect(readme).toContain("- `Domain` agents.example.com: its 2 routes are not declared");
  });
});

/**
 * A stub of the provider's client: the listings of an empty environment, and the newer kinds as
 * given; every call recorded. A kind this stub does not name lists nothing, so a kind added to the
 * exporter later reads as empty here without an edit of this file.
 */
function stubClient(o: {
  contexts?: unknown[][]; groups?: Record<string, string[] | "402">; domainPages?: unknown[][] | "402"; routes?: Record<string, unknown[][]>;
}) {
  const calls: string[] = [];
  const page = <T>(pages: T[][], after: string | undefined) => {
    const i = after ? Number(after) : 0;
    return { data: pages[i] ?? [], next: i + 1 < pages.length ? String(i + 1) : null };
  };
  const api = {
    environments: { list: async () => { calls.push("environments"); return [{ _id: ENV, name: "Alpha", apiKeys: [{ key: "k" }] }]; } },
    integrations: { list: async () => [] },
    layouts: {
      list: async () => ({ layouts: [{ layoutId: "brand" }, { layoutId: "plain" }], totalCount: 2 }),
      get: async (id: string) => layout(id, id === "brand"),
    },
    workflows: {
      list: async () => ({ workflows: [{ _id: "wf-welcome" }, { _id: "wf-other" }], totalCount: 2 }),
      get: async (id: string) => workflow(id.slice(3), id === "wf-welcome"),
    },
    topics: { list: async () => ({ data: [], next: null }) },
    environmentVariables: { list: async () => [] },
    contexts: {
      list: async (q: { after?: string; limit?: number }) => { calls.push(`contexts after=${q.after ?? ""} limit=${q.limit}`); return page(o.contexts ?? [[]], q.after); },
    },
    translations: {
      group: async (type: string, id: string) => {
        calls.push(`group ${type}/${id}`);
        const g = o.groups?.[`${type}/${id}`];
        if (g === "402") throw new NotifyApiError({ status: 402, method: "GET", path: "/v2/translations/group", serviceMessage: "Payment Required", attempts: 1 });
        if (!g) throw new NotifyNotFoundError({ status: 404, method: "GET", path: "/v2/translations/group", serviceMessage: "Not found", attempts: 1 });
        return { resourceType: type, resourceId: id, locales: g };
      },
      get: async (type: string, id: string, locale: string) => { calls.push(`get ${type}/${id}/${locale}`); return translation(type, id, locale, { k: locale }); },
    },
    domains: {
      list: async (q: { after?: string }) => {
        calls.push(`domains after=${q.after ?? ""}`);
        if (o.domainPages === "402") throw new NotifyApiError({ status: 402, method: "GET", path: "/v1/domains", serviceMessage: "Payment Required", attempts: 1 });
        return page(o.domainPages ?? [[]], q.after);
      },
      listRoutes: async (name: string, q: { after?: string }) => { calls.push(`routes ${name} after=${q.after ?? ""}`); return page(o.routes?.[name] ?? [[]], q.after); },
    },
  };
  const empty = { list: async () => [] };
  const client = new Proxy(api, { get: (t, k) => (k in t ? t[k as keyof typeof t] : empty) });
  return { client: client as unknown as NotifyClient, calls };
}

describe("reading the newer kinds", () => {
  it("follows the contexts' cursor, reads the translations of the resources with translation on only, and each domain's routes", async () => {
    const { client, calls } = stubClient({
      contexts: [[{ type: "tenant", id: "a" }], [{ type: "tenant", id: "b" }]],
      groups: { "workflow/welcome": ["fr_FR", "de_DE"] },
      domainPages: [[domain("a.example.com")], [domain("b.example.com")]],
      routes: { "b.example.com": [[{ address: "x", type: "webhook" }], [{ address: "y", type: "webhook" }]] },
    });
    const lines: string[] = [];
    const r = await readEnvironment(client, { apiKey: "k", progress: (l) => lines.push(l), concurrency: 1 });
    expect(r.contexts!.map((c) => c.id)).toEqual(["a", "b"]);
    // The layout "brand" has translation on but no translations (404); "plain" and "other" are off: not asked.
    expect(calls.filter((c) => /^(group|get) /.test(c))).toEqual(["group layout/brand", "group workflow/welcome", "get workflow/welcome/de_DE", "get workflow/welcome/fr_FR"]);
    expect(r.translations!.map((t) => `${t.resourceId}/${t.locale}`)).toEqual(["welcome/de_DE", "welcome/fr_FR"]);
    expect(calls.filter((c) => c.startsWith("contexts"))).toEqual(["contexts after= limit=100", "contexts after=1 limit=100"]);
    expect(r.domains!.map((d) => [d.domain.name, d.routes.map((x) => x.address)])).toEqual([["a.example.com", []], ["b.example.com", ["x", "y"]]]);
    expect(lines.filter((l) => /^(contexts|translations|domains)/.test(l))).toEqual([
      "contexts: 2", "translations: 2 (of 2 workflows and layouts with translation on)", "domains: 2 (2 routes)",
    ]);
    expect(r.unread).toEqual([]);
  });

  it("lists what the plan refuses (402) as skipped, and reads the rest", async () => {
    const { client, calls } = stubClient({ groups: { "layout/brand": "402", "workflow/welcome": "402" }, domainPages: "402" });
    const r = await readEnvironment(client, { apiKey: "k", concurrency: 1 });
    expect(r.translations).toEqual([]);
    expect(r.domains).toEqual([]);
    // After the first refusal, no more translation reads.
    expect(calls.filter((c) => c.startsWith("group"))).toEqual(["group layout/brand"]);
    expect(r.unread!.map((s) => `${s.kind} ${s.name}`)).toEqual(["Translation layout brand", "Translation workflow welcome", "Domain (every domain)"]);
    expect(r.unread![0]!.reason).toContain("402 Payment Required");
    const m = buildModel(r);
    expect(m.skipped.map((s) => s.kind)).toEqual(["Translation", "Translation", "Domain"]);
  });
});

describe("the exporter's kinds", () => {
  it("orders exactly the provider's resource kinds (RESOURCE_TABLES): a new resource has its part in DECLARE, which KIND_ORDER follows", async () => {
    const { KIND_ORDER } = await import("../../../export/model");
    const { RESOURCE_TABLES } = await import("../../../provider/resources/index");
    expect([...KIND_ORDER].sort()).toEqual(RESOURCE_TABLES.map((t) => t.name).sort());
  });
});
