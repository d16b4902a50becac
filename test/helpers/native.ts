/**
 * Driving the native provider plugin from a TypeScript Automation API program: resources declared
 * by type token, the project pointed at bin/ of this checkout, and the engine's detailed diffs.
 */
import path from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import type * as pulumiModule from "@pulumi/pulumi";
import { nativeRequire, ROOT, type TestStack } from "./pulumi";
import { NATIVE_PLUGINS, useNativePlugin } from "../../scripts/workspace";
import type { ResourceTable } from "../../provider/resources/fields";

export const PLUGIN = path.join(ROOT, "bin/pulumi-resource-notify");

const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;
const { RESOURCE_TABLES } = nativeRequire("pulumi-notify/dist/provider/resources/index") as { RESOURCE_TABLES: readonly ResourceTable[] };

/** A resource registered by type token (the SDK's CustomResource is abstract in its typings). */
class NativeResource extends pulumi.CustomResource {
  constructor(type: string, name: string, props: pulumiModule.Inputs, opts?: pulumiModule.CustomResourceOptions) {
    super(type, name, props, opts);
  }
}

/** A resource of the native plugin, every output of its table registered. */
export function declare(type: string, name: string, args: Record<string, unknown>, opts?: pulumiModule.CustomResourceOptions) {
  const table = RESOURCE_TABLES.find((t) => t.name === type)!;
  const props: Record<string, unknown> = Object.fromEntries(table.outputKeys.map((k) => [k, undefined]));
  return new NativeResource(`notify:index:${type}`, name, { ...props, ...args }, opts) as pulumiModule.CustomResource & Record<string, pulumiModule.Output<any>>;
}

/** The project settings that make the engine find the plugin in bin/ of this checkout. */
export const PLUGINS = NATIVE_PLUGINS;

/** Makes the stack's project find the plugin in bin/ of this checkout. */
export function usePlugin(ts: TestStack): Promise<void> {
  return useNativePlugin(ts.stack);
}

/** Per resource (by name) of a preview: the operation and the engine's detailed diff (key to kind). */
export async function detailedDiffs(stack: automation.Stack, opts: automation.PreviewOptions = {}) {
  const diffs: Record<string, { op: string; detailed: Record<string, string> }> = {};
  const res = await stack.preview({
    ...opts,
    onEvent: (e) => {
      const m = e.resourcePreEvent?.metadata;
      if (!m || m.op === "same" || m.op === "refresh" || m.type === "pulumi:pulumi:Stack" || m.type.startsWith("pulumi:providers:")) return;
      const name = m.urn.split("::").pop()!;
      if (diffs[name] && m.op !== "replace") return;
      diffs[name] = { op: m.op, detailed: Object.fromEntries(Object.entries(m.detailedDiff ?? {}).map(([k, d]) => [k, d.diffKind])) };
    },
  });
  return { res, diffs };
}
