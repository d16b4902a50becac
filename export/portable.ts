/**
 * `notify-export --portable`: the model of a program that makes the same setup in any environment
 * of any installation, rather than taking this environment's objects over. No resource is adopted
 * or imported (no service id is written), references between objects stay outputs, and every value
 * that belongs to one environment is read from the stack's config, whose source environment's
 * values the export prints (or sets, with `--stack`): secrets (integrations' credentials, tokens,
 * secret variables), as for any export, and, plain, the values of {@link PER_ENVIRONMENT}.
 */
import { configKey, configKeySuffix, uniqueName } from "./naming";
import type { ConfigSecret, ExportModel, ExportedResource, Kind, Skipped } from "./shapes";
import { ADOPT_KEY, ConfigFlag, SecretRef, type Value } from "./value";

/**
 * The inputs whose values belong to the environment they were read from, by kind, each with what it
 * is: a domain is claimed once across the service, an agent's bridge runs per environment, and a
 * variable's value is per environment by definition (declared as `value`, the value of the stack's
 * own environment, since its id differs in each).
 */
export const PER_ENVIRONMENT: Partial<Record<Kind, { field: string; what: string }[]>> = {
  Domain: [{ field: "name", what: "inbound-email domain name (claimed once across the service)" }],
  Agent: [{ field: "bridgeUrl", what: "bridge URL of this environment's agent" }],
  EnvironmentVariable: [{ field: "value", what: "value in this environment" }],
};

/** The model made portable (see the module's comment). */
export function portableModel(model: ExportModel): ExportModel {
  const secrets: ConfigSecret[] = [...model.secrets];
  const used = new Set(secrets.map((s) => s.key));
  const skipped: Skipped[] = [...model.skipped];
  const lift = (r: ExportedResource, field: string, value: Value, what: string): Value => {
    if (typeof value !== "string") return value;
    const key = uniqueName(configKey(r.kind, r.name, [field]), used, undefined, configKeySuffix);
    secrets.push({ key, value, plain: true, what: `${what} of ${r.kind} ${r.name}`, owner: r.key });
    return new SecretRef(key, false);
  };
  const resources = model.resources.map((r): ExportedResource => {
    const inputs = { ...r.inputs };
    if (r.kind === "EnvironmentVariable" && inputs.values && typeof inputs.values === "object" && !Array.isArray(inputs.values)) {
      // The exporter declares only the key's own environment's value (an API key writes no other).
      const own = (inputs.values as Record<string, Value>)[model.environment.id];
      delete inputs.values;
      if (own !== undefined) inputs.value = own;
    }
    // An integration of the exported environment is one of the stack's environment (its default).
    if (r.kind === "Integration" && inputs.environmentId === model.environment.id) delete inputs.environmentId;
    // Which integration of a channel is primary when none is declared so is the service's choice (a
    // production server makes the first active one primary, and cannot unset it): declared only where it is.
    if (r.kind === "Integration" && inputs.primary === false) delete inputs.primary;
    if (r.kind === "Environment" && inputs.parentId === model.environment.id) {
      delete inputs.parentId;
      skipped.push({ kind: r.kind, name: r.name, reason: "its parent, the exported environment, is not declared by a portable program: the parent is left to the service" });
    }
    for (const { field, what } of PER_ENVIRONMENT[r.kind] ?? []) {
      if (inputs[field] !== undefined) inputs[field] = lift(r, field, inputs[field]!, what);
    }
    // Refused where the object exists already, unless the stack says `adopt` (the source environment's stack does: --stack).
    inputs.adopt = new ConfigFlag(ADOPT_KEY);
    return { ...r, id: "", inputs };
  });
  return { ...model, portable: true, resources, secrets, skipped };
}
