/**
 * The exporter's names: variables per language (valid, unique after mangling, stable), stack
 * config keys, and the SDKs' property names, checked against the generated Python and Go SDKs.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configKey, goName, pythonName, RESERVED, uniqueName, variableName, variableNames } from "../../../export/naming";
import { packageSchema } from "../../../export/render/schema";

const ROOT = path.resolve(__dirname, "../../..");

describe("variable names", () => {
  it("are camelCase in TypeScript and Go and snake_case in Python, from the service's identifier", () => {
    expect(variableName("typescript", "sendgrid-main", "Integration")).toBe("sendgridMain");
    expect(variableName("go", "news:daily", "Topic")).toBe("newsDaily");
    expect(variableName("python", "orderShipped", "Workflow")).toBe("order_shipped");
    expect(variableName("python", "API_TOKEN", "EnvironmentVariable")).toBe("api_token");
  });

  it("never start with a digit nor are empty", () => {
    expect(variableName("typescript", "2fa-codes", "Workflow")).toBe("workflow2faCodes");
    expect(variableName("python", "2fa", "Workflow")).toBe("workflow_2fa");
    expect(variableName("go", "::", "Topic")).toBe("topic");
  });

  it("are unique when identifiers collide after mangling, and keep the first one's name", () => {
    const rs = [{ name: "my-flow", kind: "Workflow" }, { name: "my_flow", kind: "Workflow" }, { name: "my.flow", kind: "Topic" }];
    expect(variableNames("typescript", rs)).toEqual(["myFlow", "myFlow2", "myFlow3"]);
    expect(variableNames("python", rs)).toEqual(["my_flow", "my_flow_2", "my_flow_3"]);
  });

  it("avoid each language's reserved words and the program's own names", () => {
    expect(variableNames("typescript", [{ name: "default", kind: "Layout" }, { name: "config", kind: "Topic" }])).toEqual(["default2", "config2"]);
    expect(variableNames("python", [{ name: "import", kind: "Workflow" }])).toEqual(["import_2"]);
    expect(variableNames("go", [{ name: "err", kind: "Workflow" }, { name: "ctx", kind: "Topic" }])).toEqual(["err2", "ctx2"]);
    for (const lang of ["typescript", "python", "go"] as const) expect(RESERVED[lang].has("pulumi")).toBe(true);
  });

  it("are the same for the same input (stable)", () => {
    const rs = Array.from({ length: 50 }, (_, i) => ({ name: `wf-${i % 7}_${i % 3}`, kind: "Workflow" }));
    expect(variableNames("go", rs)).toEqual(variableNames("go", rs));
    expect(new Set(variableNames("go", rs)).size).toBe(rs.length);
  });

  it("uniqueName takes the first free suffix", () => {
    const used = new Set(["a", "a2"]);
    expect(uniqueName("a", used)).toBe("a3");
    expect(used.has("a3")).toBe(true);
  });
});

describe("config keys", () => {
  it("name the kind, the object and the field path in letters, digits and dashes", () => {
    expect(configKey("Integration", "sendgrid-main", ["credentials", "apiKey"])).toBe("integration-sendgrid-main-credentials-apiKey");
    expect(configKey("EnvironmentVariable", "API_TOKEN", ["value"])).toBe("environment-variable-API-TOKEN-value");
    expect(configKey("SubscriberCredentials", "alice@example.com-fcm", ["credentials", "deviceTokens", "0"])).toMatch(/^[A-Za-z][A-Za-z0-9-]*$/);
  });
});

describe("SDK property names", () => {
  /** Every input property of the resources and of the object types their inputs reach. */
  const props = () => {
    const s = packageSchema();
    const all = new Set<string>();
    const seen = new Set<string>();
    const visit = (p: { $ref?: string; items?: object; additionalProperties?: object } | undefined): void => {
      if (!p) return;
      if (p.$ref?.startsWith("#/types/")) {
        const token = p.$ref.slice("#/types/".length);
        if (seen.has(token)) return;
        seen.add(token);
        for (const [k, q] of Object.entries(s.types[token]?.properties ?? {})) { all.add(k); visit(q); }
      }
      visit(p.items as never);
      visit(p.additionalProperties as never);
    };
    for (const r of Object.values(s.resources)) for (const [k, q] of Object.entries(r.inputProperties)) { all.add(k); visit(q); }
    return [...all];
  };

  it("Python's are the generated SDK's keyword names", () => {
    // Every resource module of the SDK and its input types: the files come from the SDK itself.
    const dir = path.join(ROOT, "sdk/python/pulumi_notify");
    const sdk = readdirSync(dir).filter((f) => f.endsWith(".py") && !f.startsWith("get_"))
      .map((f) => readFileSync(path.join(dir, f), "utf8")).join("\n");
    const names = new Set([...sdk.matchAll(/^\s+([a-z_][a-z0-9_]*): (?:Optional\[)?pulumi\.Input/gm)].map((m) => m[1]!));
    const inputs = props();
    expect(inputs.length).toBeGreaterThan(40);
    for (const p of inputs) expect(names, `${p} -> ${pythonName(p)}`).toContain(pythonName(p));
    expect(pythonName("from")).toBe("from_");
    expect(pythonName("AppIOBaseUrl")).toBe("app_io_base_url");
  });

  it("Go's are the generated SDK's struct fields", () => {
    const sdk = readFileSync(path.join(ROOT, "sdk/go/notify/pulumiTypes.go"), "utf8") + readFileSync(path.join(ROOT, "sdk/go/notify/workflow.go"), "utf8");
    const fields = new Map([...sdk.matchAll(/^\t(\w+) [\w.*\[\]]+Input `pulumi:"(\w+)"`/gm)].map((m) => [m[2]!, m[1]!]));
    expect(fields.size).toBeGreaterThan(30);
    for (const [prop, field] of fields) expect(goName(prop)).toBe(field);
  });
});
