/**
 * `npm run gen-sdk`: regenerates the Python, Go and TypeScript SDKs, sdk/python, sdk/go and
 * sdk/nodejs, from the committed schema.json (`npm run schema` rewrites that first when the
 * provider changed) with Pulumi's code generators: scripts/gen-sdk/main.go, built once by
 * scripts/ensure-gen-sdk. The schema's `language` section (scripts/schema.ts) names the Python
 * package `pulumi_notify`, the Go module and the npm package (NODEJS_PACKAGE).
 * test/component/scripts/gen-sdk.test.ts checks that the committed SDKs are what this writes; scripts/nodejs-sdk.ts
 * compiles the TypeScript one for programs. The Python package also gets the hand-written modules
 * of scripts/gen-sdk/python (PYTHON_EXTRAS), through the generator's extra files: each is imported
 * by the package's __init__.py (_interrupt.py: how a program run by the Python language host ends
 * when the engine interrupts it, docs/troubleshooting.md).
 *
 * Usage: node dist/scripts/gen-sdk.js [<out>]   (default: sdk/ of this checkout)
 */
import { execFileSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./workspace";

/** Hand-written modules added to the Python package (pulumi_notify) beside the generated ones. */
export const PYTHON_EXTRAS = path.join(REPO_ROOT, "scripts/gen-sdk/python");

/** Path of the generator binary, building it on first use (needs Go). */
export function genSdkPath(): string {
  const out = execFileSync(path.join(REPO_ROOT, "scripts/ensure-gen-sdk"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return out.trim().split("\n").pop()!;
}

/** Writes `<out>/python`, `<out>/go` and `<out>/nodejs` (each replaced) from `schema` (default: the committed schema.json). */
export function generateSdks(out: string, schema = path.join(REPO_ROOT, "schema.json")): void {
  execFileSync(genSdkPath(), [schema, out, PYTHON_EXTRAS], { stdio: ["ignore", "inherit", "inherit"] });
  // The generated pyproject.toml names `readme = "README.md"` beside it, but the Python generator
  // writes the README into the package folder; Pulumi's providers copy it up after generating.
  copyFileSync(path.join(out, "python/pulumi_notify/README.md"), path.join(out, "python/README.md"));
}

if (require.main === module) {
  generateSdks(path.resolve(process.argv[2] ?? path.join(REPO_ROOT, "sdk")));
}
