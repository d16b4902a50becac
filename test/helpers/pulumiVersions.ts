/**
 * The Pulumi versions the project names, each read from the one place that states it:
 * - the pin (CLI and Node.js SDK the suite runs): package.json's devDependency `@pulumi/pulumi`;
 * - the oldest `@pulumi/pulumi` the package accepts: the floor of its peerDependencies range;
 * - the Python SDK the suite runs: scripts/ensure-python-venv (PyPI may lag behind the pin);
 * - the oldest Pulumi the generated Python and Go SDKs accept: sdk/python/pyproject.toml and
 *   sdk/go/go.mod, as Pulumi's code generators of the pinned version write them.
 * test/unit/scripts/pulumiVersions.test.ts checks that the places that must repeat a version agree
 * with these; test/e2e/oldestPulumi.test.ts runs programs on each floor.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const pkg = () => JSON.parse(read("package.json")) as { devDependencies: Record<string, string>; peerDependencies: Record<string, string> };

/** `x.y.z` as numbers, for comparing. */
export function versionParts(v: string): [number, number, number] {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v);
  if (!m) throw new Error(`not a version x.y.z: ${v}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [versionParts(a), versionParts(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** The pinned version (CLI, Node.js SDK, code generators): package.json's devDependency, exact. */
export function pinnedPulumi(): string {
  const v = pkg().devDependencies["@pulumi/pulumi"]!;
  versionParts(v);
  return v;
}

/** The peerDependencies range of `@pulumi/pulumi`, and its floor (a range `>=X <4.0.0`). */
export function peerRange(): { range: string; floor: string } {
  const range = pkg().peerDependencies["@pulumi/pulumi"]!;
  const m = /^>=(\d+\.\d+\.\d+) <4\.0\.0$/.exec(range);
  if (!m) throw new Error(`peerDependencies @pulumi/pulumi is "${range}", not ">=X <4.0.0"`);
  return { range, floor: m[1]! };
}

/** The Pulumi Python SDK version of the suite's venv: scripts/ensure-python-venv's default. */
export function pythonVenvPulumi(): string {
  const m = /PULUMI_PYTHON_VERSION:-(\d+\.\d+\.\d+)\}/.exec(read("scripts/ensure-python-venv"));
  if (!m) throw new Error("scripts/ensure-python-venv names no default PULUMI_PYTHON_VERSION");
  return m[1]!;
}

/** The generated Python SDK's requirement on `pulumi` (`>=X,<4.0.0`) and its floor. */
export function pythonSdkRequirement(): { requirement: string; floor: string } {
  const m = /"pulumi(>=(\d+\.\d+\.\d+),<4\.0\.0)"/.exec(read("sdk/python/pyproject.toml"));
  if (!m) throw new Error("sdk/python/pyproject.toml has no dependency pulumi>=X,<4.0.0");
  return { requirement: m[1]!, floor: m[2]! };
}

/** The generated Go SDK's requirement on github.com/pulumi/pulumi/sdk/v3 (the oldest it builds with). */
export function goSdkFloor(): string {
  const m = /^require github\.com\/pulumi\/pulumi\/sdk\/v3 v(\d+\.\d+\.\d+)$/m.exec(read("sdk/go/go.mod"));
  if (!m) throw new Error("sdk/go/go.mod does not require github.com/pulumi/pulumi/sdk/v3");
  return m[1]!;
}
