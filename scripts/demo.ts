/**
 * `npm run demo`: the whole product in one command. Starts the embedded emulator, runs `pulumi up`
 * of the demo stack on a gitignored local backend, changes the service by hand as a person in the
 * dashboard would, shows the drift with a refresh preview, restores it with `up`, and sums up.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { startEmulator } from "../emulator";
import { demoProgram } from "../demo/program";
import { editWorkflowByHand, linkProjectDir, localStack, REPO_ROOT, serviceApi } from "./workspace";

const API_KEY = "demo-api-key";
const say = (s: string) => process.stdout.write(`${s}\n`);

async function main(): Promise<void> {
  // NOTIFY_DEMO_DIR moves the state elsewhere (the demo's test runs it in a temp directory).
  const dir = process.env.NOTIFY_DEMO_DIR ?? path.join(REPO_ROOT, ".pulumi-state");
  rmSync(dir, { recursive: true, force: true });
  linkProjectDir(dir);
  const emu = await startEmulator({ apiKeys: [API_KEY] });
  say(`▶ emulator listening on ${emu.url}`);
  const api = serviceApi(emu.url, API_KEY);
  try {
    // Subscribers come from the application; the demo plays that part.
    await api("POST", "/v2/subscribers", { subscriberId: "alice", email: "alice@example.com", firstName: "Alice" });
    await api("POST", "/v2/subscribers", { subscriberId: "bob", email: "bob@example.com", firstName: "Bob" });

    const stack = await localStack({ dir, projectName: "notify-demo", stackName: "dev", program: demoProgram });
    await stack.setAllConfig({ "notify:apiUrl": { value: emu.url }, "notify:apiKey": { value: API_KEY, secret: true } });

    say("\n▶ pulumi up");
    const up = await stack.up({ onOutput: (o) => process.stdout.write(o) });
    // The engine counts the stack itself (pulumi:pulumi:Stack) among the creates; the summary below does not.
    say(`\n▶ created ${(up.summary.resourceChanges?.create ?? 0) - 1} resources`);

    say("\n▶ someone edits the service by hand: renames the SendGrid integration and rewrites the welcome email's subject");
    const integrations = (await api("GET", "/v1/integrations")) as any[];
    const sg = integrations.find((i) => i.identifier === "sendgrid-main");
    await api("PUT", `/v1/integrations/${sg._id}`, { name: "sendgrid (edited in dashboard)" });
    await editWorkflowByHand(api, "welcome", (body) => ({
      ...body,
      steps: body.steps.map((s: any) => (s.type === "email" ? { ...s, controlValues: { ...s.controlValues, subject: "Hand-edited subject" } } : s)),
    }));

    say("\n▶ pulumi preview --refresh --diff (drift detection)");
    const drifted: string[] = [];
    await stack.preview({
      refresh: true, diff: true, onOutput: (o) => process.stdout.write(o),
      onEvent: (e) => { const m = e.resourcePreEvent?.metadata; if (m && m.op === "update") drifted.push(m.urn.split("::").pop()!); },
    });
    say(`\n▶ drift found in: ${drifted.sort().join(", ") || "nothing"}`);

    say("\n▶ pulumi up --refresh (restores the declared state)");
    const restore = await stack.up({ refresh: true, onOutput: (o) => process.stdout.write(o) });
    const check = await stack.preview({ expectNoChanges: true });
    const outputs = Object.fromEntries(Object.entries(restore.outputs).map(([k, v]) => [k, v.secret ? "[secret]" : v.value]));

    say("\n──────── summary ────────");
    say(`resources managed: ${Object.values(check.changeSummary).reduce((a, b) => a + (b ?? 0), 0) - 1}`);
    say(`drift detected and restored: ${drifted.sort().join(", ")}`);
    say(`restore updated ${restore.summary.resourceChanges?.update ?? 0} resources; the next preview shows no changes`);
    say(`outputs: ${JSON.stringify(outputs, null, 2)}`);
    say(`state: ${path.relative(process.cwd(), dir)}/state (a local file:// backend, gitignored)`);
    say("\nTo run the same stack against a real service:");
    say("  pulumi config set notify:apiUrl https://api.example.com");
    say("  pulumi config set --secret notify:apiKey <your API key>");
    say("  pulumi up");
  } finally {
    await emu.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`demo failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
