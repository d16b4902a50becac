/**
 * The nightly live workflow, .github/workflows/live.yml: it passes actionlint (and shellcheck on
 * its run: blocks, when installed), runs `npm run test:live` on a schedule with the service's
 * address and key from the repository's secrets only, cleans up and uploads the report whatever
 * the outcome, and does nothing where the secrets are not set.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ensureActionlint, lintWorkflow, NO_SHELLCHECK, shellcheck } from "../helpers/actionlint";
import { ROOT } from "../helpers/pulumi";
import { LIVE_VARIABLES } from "../live/config";
import { PREFIX_PATTERN } from "../live/namespace";

const FILE = path.join(ROOT, ".github/workflows/live.yml");

interface Step { uses?: string; run?: string; if?: string; name?: string }
interface Workflow { on: { schedule?: { cron: string }[] }; permissions: Record<string, string>; jobs: { acceptance: { env: Record<string, string>; steps: Step[] } } }

describe("the live workflow", () => {
  let actionlint: string;
  beforeAll(() => {
    actionlint = ensureActionlint();
    if (!shellcheck) console.warn(`live.yml: ${NO_SHELLCHECK}; its run: blocks were not shellchecked`);
  });
  const wf = () => parseYaml(readFileSync(FILE, "utf8")) as Workflow;

  it("passes actionlint", () => {
    expect(lintWorkflow(actionlint, FILE)).toEqual({ status: 0, output: "" });
  });

  it("runs nightly with read-only rights, the key from secrets only, and variables the suite knows", () => {
    const w = wf();
    expect(w.on.schedule?.length).toBe(1);
    expect(w.permissions).toEqual({ contents: "read" });
    const env = w.jobs.acceptance.env;
    expect(Object.keys(env).filter((k) => !(k in LIVE_VARIABLES))).toEqual([]);
    expect(env.NOTIFY_LIVE_API_KEY).toBe("${{ secrets.NOTIFY_LIVE_API_KEY }}");
    expect(env.NOTIFY_LIVE_API_URL).toBe("${{ secrets.NOTIFY_LIVE_API_URL }}");
    // The prefix the workflow gives is one the suite takes (a run id has at most 13 digits).
    expect(env.NOTIFY_LIVE_PREFIX!.replace("${{ github.run_id }}", "1234567890123")).toMatch(PREFIX_PATTERN);
  });

  it("runs the suite, then the cleanup of its prefix and the report's upload whatever happened", () => {
    const steps = wf().jobs.acceptance.steps;
    const at = (p: (s: Step) => boolean) => steps.findIndex(p);
    const suite = at((s) => s.run === "npm run test:live");
    const cleanup = at((s) => s.run === 'npm run test:live -- --cleanup "$NOTIFY_LIVE_PREFIX"');
    const upload = at((s) => s.uses?.startsWith("actions/upload-artifact@") === true);
    expect(suite).toBeGreaterThan(0);
    expect(cleanup).toBeGreaterThan(suite);
    expect(upload).toBeGreaterThan(suite);
    for (const i of [cleanup, upload]) expect(steps[i]!.if).toMatch(/^always\(\) && /);
  });
});
