/**
 * The connection options of the package's command-line tools (`notify-export`, `notify-preview`):
 * each connection setting of CONNECTION_SETTINGS is an option of the same name in kebab case, read
 * before its environment variable, and a refused key is explained naming the option or the
 * variable it came from. One place, so that the tools read a connection alike.
 */
import { NotifyError } from "./client/errors";
import { CONNECTION_SETTINGS, connectionSetting } from "./client/settings";
import { isUnauthorized, refusedKeyHint, type ConnectionSettings } from "./config";

/** The settings the tools take: those of the connection (the tools make no resource). */
export const TOOL_SETTINGS = CONNECTION_SETTINGS.filter((s) => !("resourcesOnly" in s && s.resourcesOnly));

/** `apiUrl` → `api-url`: the option of a connection setting. */
export const optionOf = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The `node:util` `parseArgs` options of the connection settings. */
export const CONNECTION_OPTIONS = Object.fromEntries(
  TOOL_SETTINGS.map((c) => [optionOf(c.key), { type: c.type === "boolean" ? "boolean" as const : "string" as const }]),
) as Record<string, { type: "boolean" | "string" }>;

/** The help lines of the connection options, each with its environment variable. */
export const CONNECTION_HELP = TOOL_SETTINGS.map((s) => {
  const flag = `  --${optionOf(s.key)}${s.type === "boolean" ? "" : " VALUE"}`;
  return `${flag.padEnd(28)} ${s.summary} (else ${s.env})`;
}).join("\n");

/** The connection settings a tool's parsed options give (those set only; the rest come from the environment). */
export function connectionFromOptions(values: Record<string, unknown>): ConnectionSettings {
  return Object.fromEntries(
    TOOL_SETTINGS.map((c) => [c.key, values[optionOf(c.key)]]).filter(([, x]) => x !== undefined),
  ) as ConnectionSettings;
}

/**
 * The line a tool prints for an error of the service or the connection (`tool: message`), with,
 * for a refused key (401), where this key came from: its option, else its variable. Undefined for
 * any other error, which the tool rethrows.
 */
export function connectionFailure(tool: string, err: unknown, values: Record<string, unknown>): string | undefined {
  if (!(err instanceof NotifyError)) return undefined;
  const keyOption = optionOf(connectionSetting("apiKey").key);
  const source = values[keyOption] ? `the --${keyOption} option` : `the ${connectionSetting("apiKey").env} environment variable`;
  return `${tool}: ${err.message}${isUnauthorized(err) ? `. ${refusedKeyHint(source)}` : ""}`;
}
