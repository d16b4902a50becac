/**
 * The Pulumi versions: written once where they can be (test/helpers/pulumiVersions.ts says where),
 * and every file whose format forces a literal agrees with that one place: the Go program's go.mod
 * (the pinned Go SDK), the examples' manifests, the Python SDK of the suite's venv. The floors are
 * run in test/e2e/oldestPulumi.test.ts.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  compareVersions, goSdkFloor, peerRange, pinnedPulumi, pythonSdkRequirement, pythonVenvPulumi,
} from "../../helpers/pulumiVersions";
import { PYTHON_PULUMI_FLOOR } from "../../../scripts/schema";
import { pythonPulumiRequirement } from "../../../export/render/python";
import { ROOT } from "../../helpers/pulumi";

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const examples = readdirSync(path.join(ROOT, "examples"));

describe("the pinned Pulumi version", () => {
  it("is exact (package.json's devDependency, which the lockfile resolves to that version)", () => {
    const pin = pinnedPulumi();
    const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { version?: string; devDependencies?: Record<string, string> }> };
    expect(lock.packages[""]!.devDependencies!["@pulumi/pulumi"]).toBe(pin);
    expect(lock.packages["node_modules/@pulumi/pulumi"]!.version).toBe(pin);
  });

  it("is the Go SDK the Go program builds with (test/e2e/go/go.mod)", () => {
    expect(read("test/e2e/go/go.mod")).toMatch(new RegExp(`^\\tgithub\\.com/pulumi/pulumi/sdk/v3 v${pinnedPulumi().replace(/\./g, "\\.")}$`, "m"));
  });

  it("is what the Node.js examples depend on", () => {
    const manifests = examples.filter((e) => existsSync(path.join(ROOT, "examples", e, "package.json")));
    expect(manifests.length).toBeGreaterThan(0);
    for (const e of manifests) {
      const pkg = JSON.parse(read(`examples/${e}/package.json`)) as { dependencies: Record<string, string> };
      expect({ example: e, pulumi: pkg.dependencies["@pulumi/pulumi"] }).toEqual({ example: e, pulumi: `^${pinnedPulumi()}` });
    }
  });

  it("is not older than the floor of the package's peer range", () => {
    expect(compareVersions(peerRange().floor, pinnedPulumi())).toBeLessThanOrEqual(0);
  });
});

describe("the Python SDK", () => {
  it("of the suite's venv is not newer than the pin, of its major version, and not older than sdk/python accepts", () => {
    const venv = pythonVenvPulumi();
    expect(compareVersions(venv, pinnedPulumi())).toBeLessThanOrEqual(0);
    expect(venv.split(".")[0]).toBe(pinnedPulumi().split(".")[0]);
    expect(compareVersions(venv, pythonSdkRequirement().floor)).toBeGreaterThanOrEqual(0);
  });

  it("sdk/python accepts pulumi from PYTHON_PULUMI_FLOOR (scripts/schema.ts), as schema.json says and notify-export writes", () => {
    expect(pythonSdkRequirement().floor).toBe(PYTHON_PULUMI_FLOOR);
    const schema = JSON.parse(read("schema.json"));
    expect(pythonPulumiRequirement({ pulumiVersion: pinnedPulumi() }, schema)).toBe(pythonSdkRequirement().requirement);
  });

  it("the Python examples require what sdk/python requires", () => {
    const files = examples.filter((e) => existsSync(path.join(ROOT, "examples", e, "requirements.txt")));
    expect(files.length).toBeGreaterThan(0);
    for (const e of files) {
      expect({ example: e, line: read(`examples/${e}/requirements.txt`).split("\n").find((l) => /^pulumi\b[^_-]/.test(l)) })
        .toEqual({ example: e, line: `pulumi${pythonSdkRequirement().requirement}` });
    }
  });
});

describe("the Go SDK", () => {
  it("sdk/go requires a Go SDK not newer than the pin", () => {
    expect(compareVersions(goSdkFloor(), pinnedPulumi())).toBeLessThanOrEqual(0);
  });
});

describe("the README", () => {
  it("names the oldest versions the SDKs accept, as the manifests say", () => {
    const sdks = JSON.parse(read("sdk/nodejs/package.json")) as { dependencies: Record<string, string> };
    // The Python and typed TypeScript SDKs share one floor, which the README names once.
    expect(sdks.dependencies["@pulumi/pulumi"]).toBe(`^${pythonSdkRequirement().floor}`);
    const line = read("README.md").replace(/\s+/g, " ");
    expect(line).toContain(`\`pulumi-notify\` takes \`@pulumi/pulumi\` ${peerRange().floor} or later (below 4)`);
    expect(line).toContain(`the Python SDK and the typed TypeScript SDK Pulumi ${pythonSdkRequirement().floor} or later`);
    expect(line).toContain(`the Go SDK \`github.com/pulumi/pulumi/sdk/v3\` v${goSdkFloor()} or later`);
  });
});
