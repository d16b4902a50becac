/**
 * Translation under the real engine, against the emulator in production and spec mode: a workflow
 * and a layout with their translations (the resource id passed as the resource's output), an empty
 * preview, content changed in the dashboard as drift on `preview --refresh` and its repair, the
 * workflow deleted through the API (its translations go with it) as drift on both, adopt,
 * getTranslations and its Output twin, import through the native plugin, and destroy.
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as pulumiModule from "@pulumi/pulumi";
import { exportedState, loadPackage, nativeRequire, previewDiffs } from "../helpers/pulumi";
import { declare } from "../helpers/native";
import { EMULATOR_MODES, useStack } from "../helpers/stack";

interface Spec {
  fr: Record<string, unknown>;
  adopt: boolean;
}

const initial = (): Spec => ({ fr: { hello: "Bonjour", cta: { label: "Voir" } }, adopt: false });

function program(spec: Spec): automation.PulumiFn {
  return async () => {
    const notify = loadPackage();
    const welcome = new notify.Workflow("welcome", {
      workflowId: "welcome", name: "Welcome", isTranslationEnabled: true, adopt: spec.adopt,
      steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "{{t.hello}}" } }],
    });
    const frame = new notify.Layout("frame", { layoutId: "frame", name: "Frame", isTranslationEnabled: true, adopt: spec.adopt });
    const fr = new notify.Translation("welcome-fr", { resourceType: "workflow", resourceId: welcome.workflowId, locale: "fr_FR", content: spec.fr, adopt: spec.adopt });
    new notify.Translation("frame-de", { resourceType: "layout", resourceId: frame.layoutId, locale: "de_DE", content: { footer: "Abmelden" }, adopt: spec.adopt });
    return { frId: fr.id };
  };
}

const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;

describe.each(EMULATOR_MODES)("translations against the emulator in %s mode", (mode) => {
  const spec = initial();
  const { emu, ts, stack } = useStack({ emulator: { mode }, program: program(spec) });
  const live = async () => ((await emu.state()) as { translations: { resourceId: string; locale: string; content: Record<string, unknown> }[] }).translations;
  const contentOf = async (resourceId: string, locale: string) => (await live()).find((t) => t.resourceId === resourceId && t.locale === locale)?.content;

  it("creates translations of a workflow and a layout after them, with ids resourceType/resourceId/locale, and the next preview is empty", async () => {
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(5);
    expect(up.outputs.frId!.value).toBe("workflow/welcome/fr_FR");
    expect(await contentOf("welcome", "fr_FR")).toEqual(spec.fr);
    expect(await contentOf("frame", "de_DE")).toEqual({ footer: "Abmelden" });
    await emu.clearRequests();
    await ts.stack.preview({ expectNoChanges: true });
    expect(await emu.operationRequests()).toHaveLength(0);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("shows content changed in the dashboard (a key removed too) as drift on preview --refresh, and up --refresh repairs it", async () => {
    await emu.api("POST", "/v2/translations", { resourceType: "workflow", resourceId: "welcome", locale: "fr_FR", content: { hello: "Salut" } });
    const { diffs } = await previewDiffs(ts.stack, { refresh: true });
    expect(diffs).toEqual({ "welcome-fr": { op: "update", keys: ["content"] } });
    await emu.clearRequests();
    await ts.stack.up({ refresh: true });
    const writes = (await emu.requests()).filter((r) => r.method !== "GET").map((r) => ({ method: r.method, route: r.route }));
    expect(writes).toEqual([{ method: "POST", route: "/v2/translations" }]);
    expect(await contentOf("welcome", "fr_FR")).toEqual(spec.fr);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("shows a workflow deleted through the API, and its translations with it, as two to create; up makes both again", async () => {
    expect((await emu.api("DELETE", "/v2/workflows/welcome")).status).toBe(204);
    expect(await contentOf("welcome", "fr_FR")).toBeUndefined();
    const { diffs } = await previewDiffs(ts.stack, { refresh: true });
    expect(diffs.welcome?.op).toBe("create");
    expect(diffs["welcome-fr"]?.op).toBe("create");
    await ts.stack.up({ refresh: true });
    expect(await contentOf("welcome", "fr_FR")).toEqual(spec.fr);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("lists a resource's translations with getTranslations and getTranslationsOutput", async () => {
    await emu.api("POST", "/v2/translations", { resourceType: "workflow", resourceId: "welcome", locale: "en_US", content: { hello: "Hello" } });
    const fts = await stack({
      program: async () => {
        const notify = loadPackage();
        const all = await notify.getTranslations({ resourceType: "workflow", resourceId: "welcome" });
        const one = notify.getTranslationsOutput({ resourceType: "workflow", resourceId: pulumi.output("welcome"), maxResults: 1 });
        const none = await notify.getTranslations({ resourceType: "workflow", resourceId: "no-such-workflow" });
        return { locales: all.translations.map((t) => t.locale), content: all.translations.map((t) => t.content), first: one.translations.apply((t) => t.map((x) => x.locale)), none: none.translations.length };
      },
    });
    const up = await fts.stack.up();
    expect(up.outputs.locales!.value).toEqual(["en_US", "fr_FR"]);
    expect(up.outputs.content!.value).toEqual([{ hello: "Hello" }, spec.fr]);
    expect(up.outputs.first!.value).toEqual(["en_US"]);
    expect(up.outputs.none!.value).toBe(0);
    await emu.api("DELETE", "/v2/translations/workflow/welcome/en_US");
  });

  it("imports a translation by resourceType/resourceId/locale through the native plugin, and the next preview is empty", async () => {
    await emu.api("POST", "/v2/translations", { resourceType: "layout", resourceId: "frame", locale: "it_IT", content: { footer: "Annulla" } });
    const its = await stack({
      program: async () => {
        declare("Translation", "imported", { resourceType: "layout", resourceId: "frame", locale: "it_IT", content: { footer: "Annulla" } }, { import: "layout/frame/it_IT" });
      },
      frontEnd: "native",
    });
    const up = await its.stack.up();
    expect(up.summary.resourceChanges?.import).toBe(1);
    const state = await exportedState(its.stack);
    expect(state.resources.filter((r) => String(r.type).startsWith("notify:")).map((r) => r.id)).toEqual(["layout/frame/it_IT"]);
    await its.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("destroys the translations it made (the layout stays: it is the environment's default)", async () => {
    await ts.stack.destroy();
    const left = (await live()).map((t) => `${t.resourceId}/${t.locale}`);
    expect(left).toEqual(["frame/it_IT"]);
  });

  it("refuses an existing translation without adopt, naming adopt, and takes it over with it", async () => {
    await emu.api("POST", "/v2/workflows", { workflowId: "welcome", name: "Welcome", isTranslationEnabled: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "{{t.hello}}" } }] });
    await emu.api("POST", "/v2/translations", { resourceType: "workflow", resourceId: "welcome", locale: "fr_FR", content: { hello: "Fait à la main" } });
    spec.adopt = true;
    // The workflow is adopted; the translation, not yet.
    const notAdopted = { ...spec };
    await expect(createAndUp(notAdopted)).rejects.toThrow(/translation workflow\/welcome\/fr_FR: it already exists\. Set adopt: true/);
    await ts.stack.up();
    expect(await contentOf("welcome", "fr_FR")).toEqual(spec.fr);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
    await ts.stack.destroy();
    spec.adopt = false;

    async function createAndUp(s: Spec) {
      const t = await stack({
        program: async () => {
          const notify = loadPackage();
          new notify.Translation("welcome-fr", { resourceType: "workflow", resourceId: "welcome", locale: "fr_FR", content: s.fr });
        },
      });
      await t.stack.up();
    }
  });
});
