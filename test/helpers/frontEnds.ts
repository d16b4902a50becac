/**
 * The two front ends a TypeScript program can declare the provider's resources through: the
 * package's classes (dynamic resources) and the native plugin's type tokens (as the typed SDKs
 * register them). Tests that run a scenario through both take them from here.
 */
import type * as pulumiModule from "@pulumi/pulumi";
import type { ResourceTable } from "../../provider/resources/fields";
import { declare } from "./native";
import { loadPackage } from "./pulumi";

/** The front ends, the dynamic resources first. */
export const FRONT_ENDS = ["dynamic", "native"] as const;
export type FrontEnd = (typeof FRONT_ENDS)[number];

/** A declared resource: its outputs, whichever front end made it. */
export type Declared = pulumiModule.CustomResource & Record<string, pulumiModule.Output<unknown>>;

// The package's dist, as a program loads it (loaded on first use: a test file may never declare).
const packaged = () => ({
  classes: loadPackage() as unknown as Record<string, new (name: string, args: unknown, opts?: pulumiModule.CustomResourceOptions) => Declared>,
  tables: loadPackage<{ RESOURCE_TABLES: readonly ResourceTable[] }>("/dist/provider/resources/index").RESOURCE_TABLES,
  registration: loadPackage<typeof import("../../provider/resources/classes")>("/dist/provider/resources/classes").registration,
});

/**
 * Declares a resource of `kind` (a name of RESOURCE_TABLES) inside a program, through `frontEnd`:
 * the package's class, or the native plugin's type token registered as the typed SDKs register it
 * (the table's secret inputs secret, every output registered). A `native` program's project must
 * use the plugin (`frontEnd: "native"` of useStack, or usePlugin).
 */
export function declareKind(frontEnd: FrontEnd, kind: string, name: string, inputs: Record<string, unknown>, opts?: pulumiModule.CustomResourceOptions): Declared {
  const { classes, tables, registration } = packaged();
  if (frontEnd === "dynamic") {
    const cls = classes[kind];
    if (!cls) throw new Error(`the package has no resource class ${kind}`);
    return new cls(name, inputs, opts);
  }
  const table = tables.find((t) => t.name === kind);
  if (!table) throw new Error(`RESOURCE_TABLES has no resource ${kind}`);
  const reg = registration(table, inputs, opts);
  return declare(kind, name, reg.props as Record<string, unknown>, reg.opts) as Declared;
}
