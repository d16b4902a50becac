import { execFileSync } from "node:child_process";
import path from "node:path";

/** Makes sure the pinned Pulumi CLI exists (building it on first run) and shares its path. */
export default function setup(): void {
  if (process.env.PULUMI_NOTIFY_CLI) return;
  const root = path.resolve(__dirname, "../..");
  const cli = execFileSync(path.join(root, "scripts/ensure-pulumi"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n").pop()!;
  process.env.PULUMI_NOTIFY_CLI = cli;
}
