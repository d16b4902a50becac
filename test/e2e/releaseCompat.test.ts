/**
 * Compatibility kept: stacks written by a release, kept as fixtures, stay as they are under this
 * build. Each folder test/e2e/fixtures/release-<version>/ holds what that release wrote
 * (`fixture.json` names it): the service's objects (the emulator's store file, `emulator.json`)
 * and the state of one stack per front end, the TypeScript classes (`dynamic.json`) and the typed
 * SDK over the provider plugin (`native.json`), as `pulumi stack export` gives them. Under this
 * build, each stack, imported as it was, previews with `--refresh` changing no notify resource,
 * and its `up` changes none and sends the service no write.
 *
 * The connection comes from NOTIFY_API_URL and NOTIFY_API_KEY, not the stack config, so that the
 * emulator's address (a port the system picks on each run) is in no stored input.
 *
 * Writing the fixture of the current version (at a release, by `npm run release -- <version>`, or
 * by hand): NOTIFY_WRITE_RELEASE_FIXTURE=1 npx vitest run test/e2e/releaseCompat.test.ts; a version
 * that has one is never written again.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as native from "../../sdk/nodejs";
import { createTestStack, loadPackage, ROOT, type TestStack } from "../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { usePlugin } from "../helpers/native";
import { linkNodejsSdk, nodejsSdkName } from "../../scripts/nodejs-sdk";
import { currentVersion } from "../../scripts/release";

const FIXTURES = path.join(ROOT, "test/e2e/fixtures");
const PROJECT = "notify-release-compat";
const STACK = "compat";
const STEPS = [{ name: "Inbox", type: "in_app" as const, controlValues: { body: "Hi {{subscriber.firstName}}" } }];
const HTML = "<html><body><header>Example</header>{{content}}</body></html>";

/**
 * The classes' program of the fixtures: one object of most kinds, secrets included. It must stay
 * as the fixtures' release ran it; a change a user would have to make too is an upgrade note in
 * CHANGELOG.md.
 */
const dynamicProgram: automation.PulumiFn = async () => {
  const notify = loadPackage();
  new notify.Integration("mail", {
    identifier: "compat-mail", name: "Mail", providerId: "sendgrid", channel: "email", active: true,
    credentials: { apiKey: "SG.compat-dynamic-key", from: "no-reply@example.com" },
  });
  const welcome = new notify.Workflow("welcome", { workflowId: "compat-welcome", name: "Welcome", isTranslationEnabled: true, steps: STEPS });
  new notify.Translation("welcome-fr", { resourceType: "workflow", resourceId: welcome.workflowId, locale: "fr_FR", content: { greeting: "Bonjour" } });
  new notify.Topic("news", { key: "compat-news", name: "News", subscribers: ["alice"] });
  new notify.Layout("brand", { layoutId: "compat-brand", name: "Brand", controlValues: { email: { editorType: "html", body: HTML } } });
  new notify.Context("acme", { type: "tenant", contextId: "compat-acme", data: { plan: "pro" } });
};

/** The typed SDK's program of the fixtures, over the provider plugin; the same rule. */
const nativeProgram = (notify: typeof native): automation.PulumiFn => async () => {
  new notify.Integration("mail", {
    identifier: "compat-native-mail", name: "Mail", providerId: "sendgrid", channel: notify.Channel.Email, active: true,
    credentials: { apiKey: "SG.compat-native-key", from: "no-reply@example.com" },
  });
  const welcome = new notify.Workflow("welcome", { workflowId: "compat-native-welcome", name: "Welcome", isTranslationEnabled: true, steps: [{ ...STEPS[0]!, type: notify.WorkflowStepKind.InApp }] });
  new notify.Translation("welcome-fr", { resourceType: notify.TranslationResourceType.Workflow, resourceId: welcome.workflowId, locale: "fr_FR", content: { greeting: "Bonjour" } });
  new notify.Topic("news", { key: "compat-native-news", name: "News", subscribers: ["alice"] });
  new notify.Layout("brand", { layoutId: "compat-native-brand", name: "Brand", controlValues: { email: { editorType: "html", body: HTML } } });
  new notify.Context("acme", { type: "tenant", contextId: "compat-native-acme", data: { plan: "pro" } });
};

type FrontEnd = "dynamic" | "native";
const FRONT_ENDS: FrontEnd[] = ["dynamic", "native"];

/** A stack of `frontEnd`'s program, connected through the environment to `emu`. */
async function frontEndStack(frontEnd: FrontEnd, emu: TestEmulator): Promise<TestStack> {
  // The program is bound once the SDK is linked into the stack's folder.
  let program: automation.PulumiFn = dynamicProgram;
  const ts = await createTestStack({
    program: (...args) => program(...args), projectName: PROJECT, stackName: STACK,
    env: { NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: API_KEY },
  });
  if (frontEnd === "native") {
    linkNodejsSdk(ts.dir);
    await usePlugin(ts);
    program = nativeProgram(createRequire(path.join(ts.dir, "package.json"))(nodejsSdkName()) as typeof native);
  }
  return ts;
}

/** The writes in the emulator's request log, as `METHOD route`. */
const writesOf = (log: { method: string; path: string; route?: string }[]) =>
  log.filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route ?? r.path}`);

/**
 * What an operation did to notify resources, by operation: the resources of the engine's events,
 * less the provider resources (a later release's default provider is a new one, named after its
 * version), the stack, and the reads of a refresh.
 */
function notifyOps(events: automation.EngineEvent[]): Record<string, string[]> {
  const ops: Record<string, string[]> = {};
  for (const e of events) {
    const m = e.resourcePreEvent?.metadata;
    // A refreshing preview reads each resource first (op `refresh`); what it then plans is what counts.
    if (!m || m.type.startsWith("pulumi:") || m.op === "refresh") continue;
    (ops[m.op] ??= []).push(m.urn.split("::").pop()!);
  }
  return ops;
}

/**
 * The deployment without the places in the program's source where each resource was declared
 * (`sourcePosition`, `stackTrace`): paths of the machine that wrote it, which no later run needs.
 */
function withoutSourcePositions<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === "sourcePosition" || k === "stackTrace" ? undefined : v))) as T;
}

const fixtureDirs = existsSync(FIXTURES) ? readdirSync(FIXTURES).filter((d) => d.startsWith("release-")).sort() : [];

describe.skipIf(!process.env.NOTIFY_WRITE_RELEASE_FIXTURE)("writing the fixture of this version", () => {
  it(`writes test/e2e/fixtures/release-${currentVersion()}`, async () => {
    const version = currentVersion();
    const dir = path.join(FIXTURES, `release-${version}`);
    if (existsSync(dir)) throw new Error(`${path.relative(ROOT, dir)} exists: a release's fixture is written once`);
    const work = mkdtempSync(path.join(os.tmpdir(), "notify-compat-write-"));
    const store = path.join(work, "emulator.json");
    const emu = await startTestEmulator({ statePath: store });
    const written: Record<string, unknown> = {};
    try {
      expect((await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" })).status).toBeLessThan(300);
      for (const frontEnd of FRONT_ENDS) {
        const ts = await frontEndStack(frontEnd, emu);
        try {
          expect((await ts.stack.up()).summary.result).toBe("succeeded");
          written[frontEnd] = withoutSourcePositions(await ts.stack.exportStack());
        } finally {
          await ts.cleanup();
        }
      }
    } finally {
      // Closing saves the store.
      await emu.close();
    }
    mkdirSync(dir, { recursive: true });
    copyFileSync(store, path.join(dir, "emulator.json"));
    for (const frontEnd of FRONT_ENDS) writeFileSync(path.join(dir, `${frontEnd}.json`), `${JSON.stringify(written[frontEnd], null, 2)}\n`);
    writeFileSync(path.join(dir, "fixture.json"), `${JSON.stringify({ writtenBy: version, project: PROJECT, stack: STACK }, null, 2)}\n`);
    rmSync(work, { recursive: true, force: true });
  });
});

describe("stacks written by earlier releases", () => {
  it("include one written by the current version's release (the fixture is written when a version is released)", () => {
    expect(fixtureDirs).toContain(`release-${currentVersion()}`);
  });

  for (const name of fixtureDirs) {
    const fixture = JSON.parse(readFileSync(path.join(FIXTURES, name, "fixture.json"), "utf8")) as { writtenBy: string; project: string; stack: string };
    describe(`written by release ${fixture.writtenBy} (${name})`, () => {
      const work = mkdtempSync(path.join(os.tmpdir(), "notify-compat-"));
      let emu: TestEmulator | undefined;
      afterAll(async () => {
        await emu?.close();
        rmSync(work, { recursive: true, force: true });
      });

      for (const frontEnd of FRONT_ENDS) {
        it(`${frontEnd === "dynamic" ? "the TypeScript classes" : "the typed SDK over the plugin"}: preview --refresh changes nothing, and up changes nothing and writes nothing`, async () => {
          if (!emu) {
            // The service as the release left it: its store, copied so the fixture stays as written.
            copyFileSync(path.join(FIXTURES, name, "emulator.json"), path.join(work, "emulator.json"));
            emu = await startTestEmulator({ statePath: path.join(work, "emulator.json") });
          }
          const ts = await frontEndStack(frontEnd, emu);
          try {
            await ts.stack.importStack(JSON.parse(readFileSync(path.join(FIXTURES, name, `${frontEnd}.json`), "utf8")));
            const previewEvents: automation.EngineEvent[] = [];
            await emu.clearRequests();
            await ts.stack.preview({ refresh: true, onEvent: (e) => previewEvents.push(e) });
            const previewOps = notifyOps(previewEvents);
            expect(Object.keys(previewOps)).toEqual(["same"]);
            expect(previewOps.same!.sort()).toEqual(["acme", "brand", "mail", "news", "welcome", "welcome-fr"]);
            const upEvents: automation.EngineEvent[] = [];
            const up = await ts.stack.up({ onEvent: (e) => upEvents.push(e) });
            expect(up.summary.result).toBe("succeeded");
            expect(Object.keys(notifyOps(upEvents))).toEqual(["same"]);
            expect(writesOf(await emu.requests())).toEqual([]);
          } finally {
            await ts.cleanup();
          }
        });
      }
    });
  }
});
