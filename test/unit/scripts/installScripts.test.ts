/**
 * npm 12 (the npm registry's `latest` since it left 11) runs a dependency's install scripts only
 * when the project's `allowScripts` (package.json) approves them, and skips the rest: without an
 * approval, `npm ci` left the project's Node.js (the `node` package, whose preinstall fetches the
 * platform's binary) without its executable, and every npm script then ran on whatever `node` the
 * PATH had. npm 11.16 to 11.x only warn. Every package of a lockfile of the repository that has an
 * install script is decided in the package.json beside it: approved, or denied as harmless.
 */
import { globSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
/** The projects whose lockfile the repository holds, whose dependencies `npm ci` installs. */
const PROJECTS = globSync("**/package-lock.json", { cwd: ROOT, exclude: (p) => /(^|\/)(node_modules|dist|\.git)$/.test(p) }).map((f) => path.dirname(f)).sort();

describe.each(PROJECTS)("the install scripts of %s", (project) => {
  const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, project, file), "utf8")) as Record<string, any>;

  it("are each approved or denied in its package.json (allowScripts)", () => {
    const lock = read("package-lock.json") as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript)
      .map(([at]) => at.slice(at.lastIndexOf("node_modules/") + "node_modules/".length)).sort();
    const decided = (read("package.json").allowScripts ?? {}) as Record<string, boolean>;
    expect(withScripts.filter((name) => typeof decided[name] !== "boolean")).toEqual([]);
  });
});

it("the project's own Node.js is approved: its preinstall fetches the executable every npm script runs on", () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string>; allowScripts?: Record<string, boolean> };
  expect(pkg.devDependencies.node).toBeDefined();
  expect(pkg.allowScripts?.node).toBe(true);
});
