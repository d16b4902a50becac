/**
 * The reference pages under docs/ (docs/_index.md, docs/installation-configuration.md,
 * docs/api-docs/*) are what `npm run gen-docs` writes from schema.json and docs/examples, and the
 * generated blocks of hand-written pages (docs/export.md's install steps) what it writes from their source: the
 * test regenerates them in memory and compares every page, so a schema or example change without
 * regeneration fails here, naming the page. The TypeScript examples are also type-checked against
 * the package's own types, so an example that no longer compiles fails too.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { alignGo, blockMarkers, committedPages, DOCS_DIR, generateDocs, goFunctionName, pageBlocks, readExamples, renderDocs, renderGo, renderPython, renderTypeScript, renderYaml, withBlocks, type Schema } from "../../../scripts/gen-docs";
import { INSTALL_VARIANTS, installLines } from "../../../export/project";
import { REPO_ROOT } from "../../../scripts/workspace";

const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8")) as Schema;

describe("docs/ reference pages", () => {
  const pages = generateDocs();

  it("the committed pages are exactly the generated ones (run `npm run gen-docs` after changing schema.json or docs/examples)", () => {
    expect(committedPages()).toEqual([...pages.keys()].sort());
    const differing = [...pages].filter(([file, text]) => readFileSync(path.join(REPO_ROOT, DOCS_DIR, file), "utf8") !== text).map(([file]) => file);
    expect(differing).toEqual([]);
  });

  // One text, both places: the install steps notify-export prints (export/project.ts installLines)
  // are a generated block of docs/export.md, which the comparison above keeps up to date.
  it("docs/export.md holds the install steps notify-export prints, for each language, in its generated block", () => {
    const page = readFileSync(path.join(REPO_ROOT, DOCS_DIR, "export.md"), "utf8");
    const [begin, end] = blockMarkers("install steps", "export/project.ts installLines");
    const block = page.slice(page.indexOf(begin), page.indexOf(end));
    const shown = [...block.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.trimEnd().split("\n"));
    expect(shown).toEqual(INSTALL_VARIANTS.map(({ language, frontEnd }) => installLines(language, { frontEnd, packageVersion: "<version>" })));
    // A change of the printed steps changes the page (so the comparison above fails until it is regenerated).
    const edited = withBlocks("export.md", page, [{ name: "install steps", source: "export/project.ts installLines", text: "```sh\nnpm install\n```" }]);
    expect(edited).not.toEqual(page);
    expect(edited.slice(0, edited.indexOf(begin))).toEqual(page.slice(0, page.indexOf(begin)));
    expect(edited.slice(edited.indexOf(end))).toEqual(page.slice(page.indexOf(end)));
    expect(() => withBlocks("export.md", "no markers\n", pageBlocks()["export.md"]!)).toThrow(/has no generated block "install steps"/);
  });

  it("there is one page per resource and per function of schema.json, each with every language, inputs and outputs", () => {
    for (const token of [...Object.keys(schema.resources), ...Object.keys(schema.functions)]) {
      const page = pages.get(`api-docs/${token.split(":")[2]!.toLowerCase()}.md`);
      expect(page, token).toBeDefined();
      for (const heading of ["### TypeScript", "### Python", "### Go", "### YAML"]) expect(page, token).toContain(heading);
      expect(page, token).toMatch(token in schema.resources ? /## Inputs[\s\S]*## Outputs[\s\S]*## Import\n\n[\s\S]*pulumi import / : /## Arguments[\s\S]*## Result/);
    }
  });

  it("a change to the schema shows in the pages (the comparison above can fail)", () => {
    const changed = structuredClone(schema);
    changed.resources["notify:index:Topic"]!.inputProperties.name!.description = "A different description.";
    const other = renderDocs(changed, readExamples());
    expect(other.get("api-docs/topic.md")).not.toEqual(pages.get("api-docs/topic.md"));
    expect(other.get("api-docs/topic.md")).toContain("A different description.");
  });

  it("a resource without an example file (one added since) gets an example of its required inputs", () => {
    const examples = readExamples();
    delete examples.Topic;
    const page = renderDocs(schema, examples).get("api-docs/topic.md")!;
    expect(page).toContain('new notify.Topic("topic", {\n    key: "example-key",\n});');
    expect(page).toContain('topic = notify.Topic("topic",\n    key="example-key",\n)');
  });

  it("examples name properties as each SDK does (Python snake case and Args classes, Go wrappers and pointers)", () => {
    const example = readExamples().Integration!;
    expect(renderPython(schema, example)).toContain('provider_id="sendgrid"');
    expect(renderPython(schema, example)).toContain("credentials=notify.IntegrationCredentialsArgs(");
    // `from` is a Python keyword: the SDK names the property `from_`.
    expect(renderPython(schema, example)).toContain('from_="no-reply@example.com"');
    const go = renderGo(schema, example);
    expect(go).toMatch(/Channel: +notify\.Channel\("email"\)/);
    // An optional object input is a pointer input in the Go SDK.
    expect(go).toContain("Credentials: &notify.IntegrationCredentialsArgs{");
    expect(go).toMatch(/ApiKey: +cfg\.RequireSecret\("sendgridApiKey"\)/);
    // Values aligned as gofmt aligns them: one-line entries in a run; an entry spanning lines ends the run.
    expect(alignGo("\t\tA: x,\n\t\tLonger: y,\n\t\tObj: &T{\n\t\t\tK: z,\n\t\t},\n\t\tBb: w,\n\t\tC: v,"))
      .toBe("\t\tA:      x,\n\t\tLonger: y,\n\t\tObj: &T{\n\t\t\tK: z,\n\t\t},\n\t\tBb: w,\n\t\tC:  v,");
  });

  it("YAML examples are Pulumi YAML programs: type tokens, config declared (secret when read as one), outputs as ${resource.property}, literal ${ escaped", () => {
    const program = parseYaml(renderYaml(schema, {
      resources: {
        hook: { type: "Integration", properties: { identifier: "hook", providerId: "slack", channel: "chat", credentials: { webhookUrl: { $secret: "slackHook" }, from: { $config: "sender" } } } },
        creds: { type: "SubscriberCredentials", properties: { subscriberId: "alice", providerId: "slack", integrationIdentifier: { $ref: "hook.identifier" } } },
        wf: { type: "Workflow", properties: { workflowId: "w", name: "Costs ${price}", steps: [] } },
      },
    }));
    expect(program).toMatchObject({ name: `${schema.name}-example`, runtime: "yaml", config: { slackHook: { type: "string", secret: true }, sender: { type: "string" } } });
    expect(program.config.sender.secret).toBeUndefined();
    expect(program.resources.hook).toMatchObject({ type: "notify:index:Integration", properties: { credentials: { webhookUrl: "${slackHook}", from: "${sender}" } } });
    expect(program.resources.creds.properties.integrationIdentifier).toBe("${hook.identifier}");
    // Pulumi YAML reads `${...}` in any string as an interpolation; `$${` is its literal form.
    expect(program.resources.wf.properties.name).toBe("Costs $${price}");
    const call = parseYaml(renderYaml(schema, readExamples().getSubscriber!));
    expect(call).toMatchObject({ variables: { alice: { "fn::invoke": { function: "notify:index:getSubscriber", arguments: { subscriberId: "alice" } } } }, outputs: { email: "${alice.email}" } });
  });

  it("every page's YAML example names the schema's tokens and input properties, and declares each config key it reads", () => {
    // The reference pages: not the installation page, nor the hand-written pages with generated blocks.
    for (const [file, text] of [...pages].filter(([f]) => f !== "installation-configuration.md" && !(f in pageBlocks()))) {
      const block = /^### YAML\n\n```yaml\n([\s\S]*?)^```$/m.exec(text)?.[1];
      expect(block, file).toBeDefined();
      const program = parseYaml(block!) as {
        config?: Record<string, unknown>; resources?: Record<string, { type: string; properties: Record<string, unknown> }>;
        variables?: Record<string, { "fn::invoke": { function: string; arguments: Record<string, unknown> } }>;
      };
      for (const [name, r] of Object.entries(program.resources ?? {})) {
        expect(schema.resources[r.type], `${file}: ${name}`).toBeDefined();
        expect(Object.keys(r.properties).filter((k) => !(k in schema.resources[r.type]!.inputProperties)), `${file}: ${name}`).toEqual([]);
      }
      for (const [name, v] of Object.entries(program.variables ?? {})) {
        const fn = schema.functions[v["fn::invoke"].function];
        expect(fn, `${file}: ${name}`).toBeDefined();
        expect(Object.keys(v["fn::invoke"].arguments).filter((k) => !(k in (fn!.inputs?.properties ?? {}))), `${file}: ${name}`).toEqual([]);
      }
      // Every interpolation names a declared config key, resource or variable.
      const names = new Set([...Object.keys(program.config ?? {}), ...Object.keys(program.resources ?? {}), ...Object.keys(program.variables ?? {})]);
      const used = [...block!.matchAll(/(?<!\$)\$\{([^.}]+)/g)].map((m) => m[1]!);
      expect(used.filter((n) => !names.has(n)), file).toEqual([]);
    }
  });

  it("a resource's dependsOn is each language's option, naming the resource it waits for", () => {
    const example = {
      resources: {
        mail: { type: "Integration", properties: { identifier: "mail", providerId: "sendgrid", channel: "email" } },
        wf: { type: "Workflow", properties: { workflowId: "w", name: "W", steps: [] }, dependsOn: ["mail"] },
      },
    };
    expect(renderTypeScript(example)).toContain('const wf = new notify.Workflow("wf", {\n    workflowId: "w",\n    name: "W",\n    steps: [],\n}, { dependsOn: [mail] });');
    expect(renderPython(schema, example)).toContain("    opts=pulumi.ResourceOptions(depends_on=[mail]),\n)");
    const go = renderGo(schema, example);
    // The resource waited for is a variable; the option follows the arguments.
    expect(go).toContain('mail, err := notify.NewIntegration(ctx, "mail"');
    expect(go).toContain("}, pulumi.DependsOn([]pulumi.Resource{mail}))");
    expect(parseYaml(renderYaml(schema, example)).resources.wf.options).toEqual({ dependsOn: ["${mail}"] });
    expect(parseYaml(renderYaml(schema, example)).resources.mail.options).toBeUndefined();
  });

  // The Go generator names `get<X>` `Lookup<X>` when a resource `<X>` exists (its SDK has a
  // `Get<X>` already): the pages must name the functions the generated Go SDK defines.
  it("names each function as the generated Go SDK defines it (get<X> is Lookup<X> beside a resource <X>)", () => {
    const dir = path.join(REPO_ROOT, "sdk/go/notify");
    const go = readdirSync(dir).filter((f) => f.endsWith(".go")).map((f) => readFileSync(path.join(dir, f), "utf8")).join("\n");
    const missing = Object.keys(schema.functions).map((t) => `${goFunctionName(schema, t.split(":")[2]!)}Output`).filter((n) => !go.includes(`func ${n}(`));
    expect(missing).toEqual([]);
    const withResource = { ...schema, resources: { ...schema.resources, "notify:index:Topics": schema.resources["notify:index:Topic"]! } };
    expect([goFunctionName(schema, "getTopics"), goFunctionName(withResource, "getTopics")]).toEqual(["GetTopics", "LookupTopics"]);
  });

  it("every TypeScript example type-checks against the package's types", () => {
    const dir = path.join(REPO_ROOT, DOCS_DIR, ".typecheck");
    const files = new Map<string, string>();
    for (const [name, example] of Object.entries(readExamples())) files.set(path.join(dir, `${name}.ts`), renderTypeScript(example));
    const options: ts.CompilerOptions = {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10,
      esModuleInterop: true, skipLibCheck: true, types: ["node"], resolveJsonModule: true,
      baseUrl: REPO_ROOT, paths: { "pulumi-notify": ["./provider/index.ts"] },
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
    host.readFile = (f) => files.get(f) ?? readFile.call(host, f);
    host.getSourceFile = (f, v, ...rest) => (files.has(f) ? ts.createSourceFile(f, files.get(f)!, v) : getSourceFile.call(host, f, v, ...rest));
    const program = ts.createProgram([...files.keys()], options, host);
    const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.file && files.has(d.file.fileName))
      .map((d) => `${path.basename(d.file!.fileName)}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(errors).toEqual([]);
  });
});
