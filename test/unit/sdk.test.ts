/**
 * The committed SDKs sdk/python and sdk/go are what `npm run gen-sdk` writes from the committed
 * schema.json: regenerated into a temp directory, every file compared. Needs Go (the generator,
 * scripts/gen-sdk, is built with it on first use, from the Go module cache or proxy); without Go
 * on PATH the test is skipped, saying so (with CI=true it fails instead).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateSdks } from "../../scripts/gen-sdk";
import { PLUGIN_DOWNLOAD_URL } from "../../scripts/schema";
import { runs, toolchain } from "../helpers/toolchain";

const ROOT = path.resolve(__dirname, "../..");
const LANGUAGES = ["python", "go"] as const;
const hasGo = toolchain("test/unit/sdk.test.ts", runs("go", ["version"]), "Go is not on PATH (the SDK generator is built with Go)");

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

describe.skipIf(!hasGo)("the committed SDKs (sdk/python, sdk/go)", () => {
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
    }, 600_000);
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
  }, 600_000);

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
