/**
 * The committed SDKs sdk/python, sdk/go and sdk/nodejs are what `npm run gen-sdk` writes from the
 * committed schema.json: regenerated into a temp directory, every file compared; the TypeScript
 * SDK compiles with `tsc` (its own tsconfig.json, strict) and a program importing it by name
 * type-checks. Needs Go (the generator,
 * scripts/gen-sdk, is built with it on first use, from the Go module cache or proxy); without Go
 * on PATH the test is skipped, saying so (with CI=true it fails instead).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateSdks } from "../../../scripts/gen-sdk";
import { buildNodejsSdk, linkNodejsSdk, nodejsSdkName } from "../../../scripts/nodejs-sdk";
import { linkProjectDir } from "../../../scripts/workspace";
import { PLUGIN_DOWNLOAD_URL } from "../../../scripts/schema";
import { runs, toolchain } from "../../helpers/toolchain";

const ROOT = path.resolve(__dirname, "../../..");
const LANGUAGES = ["python", "go", "nodejs"] as const;
const hasGo = toolchain("test/component/scripts/gen-sdk.test.ts", runs("go", ["version"]), "Go is not on PATH (the SDK generator is built with Go)");

/** Every file under `dir`, as paths relative to it with `/` separators, sorted. */
function files(dir: string, sub = ""): string[] {
  return readdirSync(path.join(dir, sub), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(dir, path.posix.join(sub, e.name)) : [path.posix.join(sub, e.name)]))
    .sort();
}

/** Differences between two SDK directories: files on one side only, and files whose contents differ. */
function differences(committed: string, generated: string): string[] {
  const a = files(committed);
  const b = files(generated);
  return [
    ...a.filter((f) => !b.includes(f)).map((f) => `${f}: committed, not generated`),
    ...b.filter((f) => !a.includes(f)).map((f) => `${f}: generated, not committed`),
    ...a.filter((f) => b.includes(f) && !readFileSync(path.join(committed, f)).equals(readFileSync(path.join(generated, f)))).map((f) => `${f}: differs`),
  ];
}

describe.skipIf(!hasGo)("the committed SDKs (sdk/python, sdk/go, sdk/nodejs)", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-sdk-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  let generated = false;
  const generate = () => {
    if (!generated) generateSdks(path.join(tmp, "sdk"));
    generated = true;
    return path.join(tmp, "sdk");
  };

  for (const lang of LANGUAGES) {
    it(`sdk/${lang} is what npm run gen-sdk writes from schema.json (run it after changing the schema)`, () => {
      const out = generate();
      expect(differences(path.join(ROOT, "sdk", lang), path.join(out, lang))).toEqual([]);
    });
  }

  it("the comparison names a changed, a missing and an extra file", () => {
    const out = generate();
    const copy = path.join(tmp, "copy");
    // A copy of the generated Go SDK with one file changed, one added; compared with the generated one.
    spawnSync("cp", ["-r", path.join(out, "go"), copy]);
    writeFileSync(path.join(copy, "notify/doc.go"), "// edited by hand\n");
    writeFileSync(path.join(copy, "notify/extra.go"), "package notify\n");
    rmSync(path.join(copy, "notify/workflow.go"));
    expect(differences(copy, path.join(out, "go")).sort()).toEqual([
      "notify/doc.go: differs",
      "notify/extra.go: committed, not generated",
      "notify/workflow.go: generated, not committed",
    ]);
  });

  it("the Go SDK is the module of the schema's language section, and the Python package pulumi_notify of the schema's version; both name where the engine downloads the plugin", () => {
    const schema = JSON.parse(readFileSync(path.join(ROOT, "schema.json"), "utf8")) as { version: string; pluginDownloadURL: string; language: { go: { importBasePath: string } } };
    expect(schema.pluginDownloadURL).toBe(PLUGIN_DOWNLOAD_URL);
    const gomod = readFileSync(path.join(ROOT, "sdk/go/go.mod"), "utf8");
    expect(gomod).toContain(`module ${path.posix.dirname(schema.language.go.importBasePath)}\n`);
    const pyproject = readFileSync(path.join(ROOT, "sdk/python/pyproject.toml"), "utf8");
    expect(pyproject).toMatch(/name = "pulumi_notify"/);
    expect(pyproject).toContain(`version = "${schema.version}"`);
    for (const plugin of ["sdk/go/notify/pulumi-plugin.json", "sdk/python/pulumi_notify/pulumi-plugin.json"]) {
      expect(JSON.parse(readFileSync(path.join(ROOT, plugin), "utf8"))).toEqual({ resource: true, name: "notify", version: schema.version, server: schema.pluginDownloadURL });
    }
  });
});

describe("the TypeScript SDK of the native plugin (sdk/nodejs)", () => {
  const tsc = (args: string[], cwd = ROOT) => spawnSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), ...args], { cwd, encoding: "utf8" });

  it("compiles with tsc under its own tsconfig.json (strict)", () => {
    const r = tsc(["-p", path.join(ROOT, "sdk/nodejs/tsconfig.json"), "--noEmit"]);
    expect(`${r.stdout}${r.stderr}`).toBe("");
    expect(r.status).toBe(0);
  });

  it("is the npm package @pulumi-notify/native of the schema's version, asking the engine for the notify plugin of that version from where the schema says", () => {
    const schema = JSON.parse(readFileSync(path.join(ROOT, "schema.json"), "utf8")) as { version: string; pluginDownloadURL: string; language: { nodejs: { packageName: string } } };
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "sdk/nodejs/package.json"), "utf8")) as { name: string; version: string; pulumi: object };
    // Not the dynamic package's name: a program may depend on both.
    expect(nodejsSdkName()).toBe(schema.language.nodejs.packageName);
    expect(pkg.name).not.toBe(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).name);
    expect(pkg.version).toBe(schema.version);
    expect(pkg.pulumi).toEqual({ resource: true, name: "notify", version: schema.version, server: schema.pluginDownloadURL });
  });

  it("a program importing it by name type-checks, and a wrong argument is a type error", () => {
    buildNodejsSdk();
    const dir = mkdtempSync(path.join(os.tmpdir(), "notify-native-ts-"));
    try {
      linkProjectDir(dir);
      linkNodejsSdk(dir);
      mkdirSync(path.join(dir, "node_modules/@types"), { recursive: true });
      spawnSync("ln", ["-s", path.join(ROOT, "node_modules/@types/node"), path.join(dir, "node_modules/@types/node")]);
      const program = (extra: string) => `import * as notify from "${nodejsSdkName()}";
const sg = new notify.Integration("sg", { identifier: "sg", providerId: "sendgrid", channel: notify.Channel.Email, credentials: { apiKey: "k" } });
new notify.Workflow("wf", { workflowId: "wf", name: "Welcome", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }] });
export const id: notify.Integration["integrationId"] = sg.integrationId;
${extra}
`;
      const check = (extra: string) => {
        writeFileSync(path.join(dir, "index.ts"), program(extra));
        const r = tsc(["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", "index.ts"], dir);
        return { status: r.status, out: `${r.stdout}${r.stderr}` };
      };
      expect(check("")).toEqual({ status: 0, out: "" });
      const wrong = check('new notify.Topic("t", { key: "news", subscribers: "alice" });');
      expect(wrong.status).not.toBe(0);
      // Line 5 col 38: the string given for `subscribers`, a list of subscriber ids.
      expect(wrong.out).toMatch(/^index\.ts\(5,38\): error TS2322: Type 'string' is not assignable/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
