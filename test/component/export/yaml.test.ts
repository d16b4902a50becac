/**
 * `notify-export --language yaml`, read back as Pulumi YAML reads it. The dashboard-made
 * environment (test/helpers/dashboard.ts: every step kind, layouts, integrations, a topic, a plain
 * and a secret variable, a context, translations, a domain; its other environments and Alice's
 * credentials asked for) is read from the emulator and written as a YAML project, which is parsed
 * with the `yaml` package and checked against schema.json: each resource's type token, name and
 * import id; each property, at every depth, a property of the schema's type with a value of its
 * type; each reference an output of the resource it names; each secret a declared config key; and
 * the values, once Pulumi YAML's `$$` is read as `$`, exactly the model's. The language host's own
 * reading (`pulumi preview`) is test/e2e/pull.test.ts's, when the host is there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildModel, Ref, SecretRef, type ExportModel, type Value } from "../../../export/model";
import { forLanguage, parseOwned, projectFiles, RENDERERS } from "../../../export/project";
import { readEnvironment } from "../../../export/read";
import { packageSchema, resolve, type PropSchema } from "../../../export/render/schema";
import { yamlString } from "../../../export/render/yaml";
import { NotifyClient } from "../../../provider/client";
import { API_KEY } from "../../helpers/emulator";
import { CHANNEL_TOKEN, SECRET_VARIABLE_VALUE, SLACK_HOOK, startDashboardEmulator } from "../../helpers/dashboard";

const OPTS = { frontEnd: "native" as const, project: "notify-dash", packageVersion: "1.2.3", pulumiVersion: "3.0.0" };
const schema = packageSchema();

/**
 * A string as Pulumi YAML reads it (pulumi/pulumi-yaml v1.25 to v1.38.1, pkg/pulumiyaml/ast/interpolation.go
 * `parseInterpolate`, then `ParseExpr` of expr.go): `$$` is `$`, `${path}` a reference; a string
 * that is one reference and nothing else is that reference's value.
 */
function pulumiYamlString(s: string): { text: string } | { reference: string } {
  let text = "";
  const references: string[] = [];
  for (let i = 0; i < s.length;) {
    if (s.startsWith("$$", i)) {
      text += "$";
      i += 2;
    } else if (s.startsWith("${", i)) {
      const end = s.indexOf("}", i);
      expect({ s, text }).toEqual({ s, text: "" });
      references.push(s.slice(i + 2, end));
      i = end + 1;
    } else {
      text += s[i++];
    }
  }
  if (references.length === 0) return { text };
  expect({ s, references, text }).toEqual({ s, references: [references[0]], text: "" });
  return { reference: references[0]! };
}

/**
 * Characters libyaml (and so Go's yaml.v3, which Pulumi YAML parses with) accepts in a document,
 * less the ones it reads as line breaks inside a quoted scalar (NEL, LS, PS): yaml_parser_update_buffer
 * refuses the rest with "control characters are not allowed".
 */
const LIBYAML_SAFE = /^[\t\n\r\u0020-\u007e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]*$/u;

describe("the YAML export of a dashboard-made environment", () => {
  let model: ExportModel;
  let files: Record<string, string>;
  let main: { config?: Record<string, { type: string; secret: boolean }>; resources: Record<string, { type: string; name: string; properties?: Record<string, unknown>; options: { import: string; dependsOn?: string[] } }> };

  beforeAll(async () => {
    const emu = await startDashboardEmulator("dash");
    const client = new NotifyClient({ apiUrl: emu.url, apiKey: API_KEY, allowInsecureHttp: true });
    try {
      model = forLanguage(buildModel(await readEnvironment(client, { apiKey: API_KEY, environments: true, subscribers: ["alice"] })), "yaml");
    } finally {
      await client.close();
      await emu.close();
    }
    files = projectFiles(model, "yaml", OPTS, { environments: true, subscribers: ["alice"] });
    main = parse(files["Main.yaml"]!);
  });

  it("writes Pulumi.yaml with runtime yaml, the program as Main.yaml, and the package's version as a package declaration", () => {
    expect(Object.keys(files).sort()).toEqual([".gitignore", "Main.yaml", "Pulumi.yaml", "README.md", "import.json", `sdks/${schema.name}.yaml`]);
    expect(RENDERERS.yaml.ownedFile).toBe("Main.yaml");
    const project = parse(files["Pulumi.yaml"]!);
    expect(project).toMatchObject({ name: "notify-dash", runtime: "yaml" });
    // Pulumi.yaml holds no program: Pulumi YAML would not read it beside Main.yaml.
    expect(Object.keys(project).sort()).toEqual(["description", "name", "runtime"]);
    // pkg/pulumiyaml/packages/file.go: PackageDecl, valid with packageDeclarationVersion 1 and a name.
    expect(parse(files[`sdks/${schema.name}.yaml`]!)).toEqual({
      packageDeclarationVersion: 1, name: schema.name, version: OPTS.packageVersion, downloadUrl: schema.pluginDownloadURL,
    });
  });

  it("declares every kind, every resource with its schema type token, its name and its import id, in the model's order", () => {
    expect(new Set(model.resources.map((r) => r.kind))).toEqual(new Set(Object.keys(schema.resources).map((t) => t.split(":").pop())));
    expect(model.skipped).toEqual([]);
    const entries = Object.values(main.resources);
    expect(entries.map((e) => [e.type, e.name, e.options.import])).toEqual(model.resources.map((r) => [`${schema.name}:index:${r.kind}`, r.name, r.id]));
    for (const e of entries) {
      expect(schema.resources[e.type], e.type).toBeDefined();
      // Alice's preferences for one workflow also carry dependsOn (the test below).
      expect(Object.keys(e.options)).toEqual(e.name === "alice-order-shipped-preferences" ? ["import", "dependsOn"] : ["import"]);
      for (const req of schema.resources[e.type]!.requiredInputs ?? []) expect(e.properties, `${e.name}.${req}`).toHaveProperty(req);
    }
  });

  it("declares a subscriber's preferences for a workflow after its global ones (dependsOn, as docs/subscribers.md asks), the global entry first", () => {
    const variables = Object.keys(main.resources);
    const variableOf = (name: string) => variables.find((v) => main.resources[v]!.name === name)!;
    const global = variableOf("alice-preferences"), workflow = variableOf("alice-order-shipped-preferences");
    expect([global, workflow].every(Boolean)).toBe(true);
    expect(main.resources[workflow]!.options.dependsOn).toEqual([`\${${global}}`]);
    expect(main.resources[global]!.options.dependsOn).toBeUndefined();
    expect(variables.indexOf(global)).toBeLessThan(variables.indexOf(workflow));
    // Read back as an update reads it: the dependsOn line is no secret's.
    const owned = parseOwned(files["Main.yaml"]!, RENDERERS.yaml)!;
    expect(owned.secretKeys.get("SubscriberPreferences/alice-order-shipped-preferences")).toEqual([]);
  });

  it("writes each property as the schema types it, each value exactly the model's, references to outputs, secrets from declared config", () => {
    const keyOf = new Map(Object.entries(main.resources).map(([variable, e], i) => [variable, model.resources[i]!.key]));
    const kindOf = (key: string) => key.split("/")[0]!;
    const config = main.config ?? {};
    const seen = { references: 0, secrets: 0 };
    /** Checks `actual` (parsed) against the model's `expected` of schema type `p`, at `path`. */
    const check = (actual: unknown, expected: Value, p: PropSchema | undefined, path: string): void => {
      if (expected instanceof Ref || expected instanceof SecretRef) {
        const read = pulumiYamlString(actual as string);
        expect("reference" in read, path).toBe(true);
        const access = (read as { reference: string }).reference;
        if (expected instanceof Ref) {
          const [variable, output] = access.split(".");
          expect([keyOf.get(variable!), output], path).toEqual([expected.target, expected.output]);
          expect(schema.resources[`${schema.name}:index:${kindOf(expected.target)}`]!.properties, path).toHaveProperty(output!);
          seen.references++;
        } else {
          expect(access, path).toBe(expected.key);
          expect(config[access], path).toEqual({ type: "string", secret: true });
          seen.secrets++;
        }
        return;
      }
      const t = resolve(schema, p);
      if (expected === null || typeof expected !== "object") {
        expect(typeof actual === "string" ? pulumiYamlString(actual) : actual, path).toEqual(typeof expected === "string" ? { text: expected } : expected);
        if (t.kind === "enum") expect(schema.types[p!.$ref!.replace("#/types/", "")]!.enum!.map((e) => e.value), path).toContain(expected);
        if (t.kind === "primitive" && expected !== null) expect(typeof expected, path).toBe(t.type === "integer" ? "number" : t.type);
        return;
      }
      if (Array.isArray(expected)) {
        expect(Array.isArray(actual) && actual.length, path).toBe(expected.length);
        expected.forEach((x, i) => check((actual as unknown[])[i], x, t.kind === "array" ? t.items : undefined, `${path}[${i}]`));
        return;
      }
      // A typed object leaves its null properties out (as the Python and Go SDKs do); maps and untyped values keep them.
      const entries = Object.entries(expected).filter(([, x]) => t.kind !== "object" || x !== null);
      const parsed = Object.entries(actual as Record<string, unknown>).map(([k, x]) => [(pulumiYamlString(k) as { text: string }).text, x] as const);
      expect(parsed.map(([k]) => k), path).toEqual(entries.map(([k]) => k));
      for (const [k, x] of entries) {
        if (t.kind === "object") expect(Object.keys(t.properties), `${path}.${k}`).toContain(k);
        check(parsed.find(([pk]) => pk === k)![1], x, t.kind === "object" ? t.properties[k] : t.kind === "map" ? t.values : undefined, `${path}.${k}`);
      }
    };
    model.resources.forEach((r, i) => {
      const e = Object.values(main.resources)[i]!;
      const inputs = Object.fromEntries(Object.entries(r.inputs).filter(([, v]) => v !== null));
      expect(Object.keys(e.properties ?? {}), r.key).toEqual(Object.keys(inputs));
      const props = schema.resources[e.type]!.inputProperties;
      for (const [k, v] of Object.entries(inputs)) {
        expect(props, `${r.key}.${k}`).toHaveProperty(k);
        check(e.properties![k], v, props[k], `${r.key}.${k}`);
      }
    });
    // The email step's layout, the translations' workflow, the credentials' integration, an environment's parent.
    expect(seen.references).toBeGreaterThanOrEqual(4);
    expect(seen.secrets).toBe(model.secrets.length);
    expect(Object.keys(config)).toEqual(model.secrets.map((s) => s.key));
  });

  it("writes no secret value into any file, and every file is a YAML document libyaml accepts", () => {
    const text = Object.values(files).join("\n");
    for (const secret of ["SG.dashboard-key", "whsec-dashboard", SECRET_VARIABLE_VALUE, SLACK_HOOK, CHANNEL_TOKEN]) expect(text).not.toContain(secret);
    for (const [name, t] of Object.entries(files)) if (name.endsWith(".yaml")) expect(LIBYAML_SAFE.test(t), name).toBe(true);
  });

  it("skips a resource holding a key Pulumi YAML reads as a function, and the resources that reference it, saying why; other languages keep them", () => {
    const workflow = model.resources.find((r) => r.key === "Workflow/order-shipped")!;
    const custom = { ...workflow, inputs: { ...workflow.inputs, steps: [...(workflow.inputs.steps as Value[]), { name: "Raw", type: "custom", stepId: "raw", controlValues: { "Fn::Join": ["a", "b"] } }] } };
    const withKey: ExportModel = { ...model, resources: model.resources.map((r) => (r === workflow ? custom : r)) };
    const yaml = forLanguage(withKey, "yaml");
    const dependants = model.resources.filter((r) => JSON.stringify(r.inputs).includes(`"target":"${workflow.key}"`)).map((r) => r.key);
    expect(dependants.length).toBeGreaterThan(0);
    expect(yaml.resources.map((r) => r.key)).toEqual(model.resources.map((r) => r.key).filter((k) => k !== workflow.key && !dependants.includes(k)));
    expect(yaml.skipped.map((s) => `${s.kind}/${s.name}`)).toEqual([workflow.key, ...dependants]);
    expect(yaml.skipped[0]!.reason).toBe(`Pulumi YAML reads the key "Fn::Join" (at steps.${(workflow.inputs.steps as Value[]).length}.controlValues.Fn::Join) as a built-in function, so it cannot declare the value`);
    expect(yaml.skipped[1]!.reason).toBe(`it references ${workflow.key}, which yaml cannot declare`);
    for (const language of ["typescript", "python", "go"] as const) expect(forLanguage(withKey, language)).toBe(withKey);
  });
});

describe("YAML strings and keys", () => {
  const NASTY = [
    "a \"quoted\" \\ back\nslash", "${x} and ${y.z} and $${w} and $$ and $", "{{ payload.name }} été \t tab", "\u2028LS \u2029PS \u0085NEL \u007fDEL \ufeffBOM",
    "emoji 🎉", "", " leading and trailing ", "# not a comment", "- not a list", "key: not a map", "null", "true", "0x1F", "1e3", "~",
  ];

  it("read back, as Pulumi YAML reads a string, exactly as written, and stay in libyaml's printable set", () => {
    for (const s of NASTY) {
      const written = yamlString(s);
      expect(LIBYAML_SAFE.test(written), JSON.stringify(s)).toBe(true);
      expect(pulumiYamlString(parse(`v: ${written}`).v as string)).toEqual({ text: s });
    }
  });

  it("keep mapping keys that YAML would read otherwise, or as references, as they are", () => {
    const data = Object.fromEntries(NASTY.map((s, i) => [s, i]));
    const model: ExportModel = {
      environment: { id: "env" }, secrets: [], skipped: [],
      resources: [{ key: "Context/tenant:x", kind: "Context", name: "tenant:x", id: "tenant:x", inputs: { type: "tenant", contextId: "x", data } }],
    };
    const main = parse(projectFiles(model, "yaml", OPTS)["Main.yaml"]!);
    const read = Object.entries(main.resources.tenantX.properties.data as Record<string, number>).map(([k, v]) => [pulumiYamlString(k), v]);
    expect(read).toEqual(NASTY.map((s, i) => [{ text: s }, i]));
  });
});
