/**
 * The exported preferences of a subscriber for one workflow come after its global preferences
 * (docs/subscribers.md: a write of a global channel clears that channel's per-workflow choices, so
 * a stack that declares both declares the workflow's with `dependsOn` on the global ones). The
 * dashboard-made environment (test/helpers/dashboard.ts: Alice chose global preferences and her
 * own for the order-shipped workflow) is read from the emulator with `--subscriber alice` and
 * written in each language, taking over and portable: the workflow's declaration carries each
 * language's dependsOn option naming the variable of the global one, declared before it (though
 * `alice-order-shipped-preferences` sorts before `alice-preferences`). Each file is parsed by its
 * language's own parser where the machine has it (`gofmt -e`, Python's `ast`); YAML is
 * test/component/export/yaml.test.ts's, and the programs' runs test/e2e/export.test.ts's and
 * test/e2e/exportLanguages.test.ts's.
 */
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { buildModel, type ExportModel } from "../../../export/model";
import { forLanguage, ownedFile, parseOwned, RENDERERS } from "../../../export/project";
import { portableModel } from "../../../export/portable";
import type { FrontEnd, Language } from "../../../export/render/common";
import { readEnvironment } from "../../../export/read";
import { NotifyClient } from "../../../provider/client";
import { API_KEY } from "../../helpers/emulator";
import { startDashboardEmulator } from "../../helpers/dashboard";

const GLOBAL = "SubscriberPreferences/alice-preferences";
const WORKFLOW = "SubscriberPreferences/alice-order-shipped-preferences";

/** The text of each language's dependsOn option on its line, naming `variable`, with the import option before it when the program takes objects over. */
const OPTION: Record<Language, (variable: string, id?: string) => string> = {
  typescript: (v, id) => `, { ${id ? `import: ${JSON.stringify(id)}, ` : ""}dependsOn: [${v}] });`,
  python: (v, id) => `    opts=pulumi.ResourceOptions(${id ? `import_=${JSON.stringify(id)}, ` : ""}depends_on=[${v}]),`,
  go: (v, id) => `}${id ? `, pulumi.Import(pulumi.ID(${JSON.stringify(id)}))` : ""}, pulumi.DependsOn([]pulumi.Resource{${v}}))`,
  yaml: (v) => `      dependsOn: ["\${${v}}"]`,
};

/** The lines of the declaration of model key `key`: from its comment to the next declaration's. */
function declaration(text: string, key: string, comment: string): string[] {
  const [kind, name] = [key.slice(0, key.indexOf("/")), key.slice(key.indexOf("/") + 1)];
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.trim().startsWith(`${comment} ${kind} ${JSON.stringify(name)} (`));
  expect(start, key).toBeGreaterThan(-1);
  const end = lines.findIndex((l, i) => i > start && /^\s*(\/\/|#) [A-Za-z]+ ".*" \((id .*|portable)\)$/.test(l));
  return lines.slice(start, end === -1 ? undefined : end);
}

/** Whether the machine has a command. */
const has = (cmd: string) => spawnSync(cmd, ["--version"], { stdio: "ignore" }).error === undefined;

describe("a subscriber's preferences for a workflow, exported after its global ones", () => {
  let model: ExportModel;

  beforeAll(async () => {
    const emu = await startDashboardEmulator("deps");
    const client = new NotifyClient({ apiUrl: emu.url, apiKey: API_KEY, allowInsecureHttp: true });
    try {
      model = buildModel(await readEnvironment(client, { apiKey: API_KEY, subscribers: ["alice"] }));
    } finally {
      await client.close();
      await emu.close();
    }
  });

  it("in the model: the workflow's depends on the global one, which comes first", () => {
    const keys = model.resources.map((r) => r.key);
    expect(model.resources.find((r) => r.key === WORKFLOW)!.dependsOn).toEqual([GLOBAL]);
    expect(model.resources.find((r) => r.key === GLOBAL)!.dependsOn).toBeUndefined();
    expect(keys.indexOf(GLOBAL)).toBeLessThan(keys.indexOf(WORKFLOW));
    expect(model.resources.filter((r) => r.dependsOn).map((r) => r.key)).toEqual([WORKFLOW]);
  });

  const cases: [Language, FrontEnd][] = [["typescript", "dynamic"], ["typescript", "native"], ["python", "native"], ["go", "native"], ["yaml", "native"]];
  for (const [language, frontEnd] of cases) {
    for (const portable of [false, true]) {
      it(`${language} (${frontEnd} front end${portable ? ", portable" : ""}): the dependsOn option names the global preferences' variable, declared before`, () => {
        const m = forLanguage(portable ? portableModel(model) : model, language);
        const renderer = RENDERERS[language];
        const text = ownedFile(m, language, { frontEnd }, {});
        const owned = parseOwned(text, renderer)!;
        const global = owned.variables.get(GLOBAL)!;
        expect(global).toBeTruthy();
        // The import option only where the program takes objects over through the plugin.
        const id = !portable && !(language === "typescript" && frontEnd === "dynamic") ? "alice/order-shipped" : undefined;
        const workflow = declaration(text, WORKFLOW, renderer.comment);
        expect(workflow.filter((l) => l.includes(OPTION[language](global, id))), workflow.join("\n")).toHaveLength(1);
        // The global's own declaration depends on nothing, and is the first to name its variable.
        expect(declaration(text, GLOBAL, renderer.comment).join("\n")).not.toMatch(/dependsOn|depends_on|DependsOn/);
        const lines = text.split("\n");
        expect(lines.findIndex((l) => renderer.declaredVariable(l) === global)).toBeLessThan(lines.indexOf(workflow[0]!));
        // An update reads the declarations back: the option is no secret of the resource's.
        expect(owned.secretKeys.get(WORKFLOW)).not.toContain(global);
      });
    }
  }

  it.skipIf(!has("gofmt"))("Go: the declarations parse (gofmt -e)", () => {
    const r = spawnSync("gofmt", ["-e", "-l"], { input: ownedFile(model, "go", { frontEnd: "native" }, {}), encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it.skipIf(!has("python3"))("Python: the declarations parse (ast.parse)", () => {
    const r = spawnSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], { input: ownedFile(model, "python", { frontEnd: "native" }, {}), encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
