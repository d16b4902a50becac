/**
 * The connection settings, one row each: the stack config key (`notify:<key>`), the environment
 * variable read when config does not set it, the type, the default and range, whether it is
 * secret, and the description users read. provider/config.ts resolves a connection from this
 * table, the client takes its defaults from it, and scripts/schema.ts writes the schema's config
 * variables and provider inputs from it: a new setting is one row here.
 */

/** One connection setting. */
export interface ConnectionSetting {
  /** The config key under `notify:` and the explicit provider's input name. */
  readonly key: string;
  /** The environment variable read when the stack config does not set the key. */
  readonly env: string;
  readonly type: "string" | "boolean" | "integer";
  /** The values a string setting may take, when it is one of a few. */
  readonly values?: readonly string[];
  readonly secret?: boolean;
  /** Required to make any request (no default). */
  readonly required?: boolean;
  /** The value used when neither config nor the environment sets one. */
  readonly default?: boolean | number | string;
  /** Inclusive bounds of an integer setting. */
  readonly min?: number;
  readonly max?: number;
  /**
   * A setting of how the provider's resources behave rather than of the connection: the stack
   * config and the provider's inputs have it, the command-line tools (which make no resource) do not.
   */
  readonly resourcesOnly?: boolean;
  /** What the setting is, for users (the schema and the docs): one phrase, without range, default or variable. */
  readonly summary: string;
}

/** Per-attempt request timeout: its default and bounds. */
export const REQUEST_TIMEOUT = { default: 30_000, min: 100, max: 600_000 } as const;

/** What a workflow step the service says cannot send does to an operation: a warning, or a failed `pulumi up`. */
export const STEP_ISSUE_MODES = ["warn", "error"] as const;

/** Every connection setting, in the order users meet them. */
export const CONNECTION_SETTINGS = [
  { key: "apiUrl", env: "NOTIFY_API_URL", type: "string", required: true, summary: "Address of the notification service (https://...)" },
  { key: "apiKey", env: "NOTIFY_API_KEY", type: "string", secret: true, required: true, summary: "API key of the environment to manage" },
  { key: "allowInsecureHttp", env: "NOTIFY_ALLOW_INSECURE_HTTP", type: "boolean", default: false, summary: "Allow http:// to a host other than loopback" },
  { key: "requestTimeoutMs", env: "NOTIFY_REQUEST_TIMEOUT_MS", type: "integer", ...REQUEST_TIMEOUT, summary: "Per-attempt request timeout in milliseconds" },
  {
    key: "stepIssues", env: "NOTIFY_STEP_ISSUES", type: "string", values: STEP_ISSUE_MODES, default: "warn", resourcesOnly: true,
    summary: "What a workflow step the service says cannot send (its step issues) does: `warn` shows a warning, `error` also fails `pulumi up`; a workflow's `stepIssues` input overrides it",
  },
] as const satisfies readonly ConnectionSetting[];

/** A setting's key. */
export type ConnectionKey = (typeof CONNECTION_SETTINGS)[number]["key"];

/** The keys of the settings, each also the stack config key `notify:<key>`. */
export const CONNECTION_KEYS: readonly ConnectionKey[] = CONNECTION_SETTINGS.map((s) => s.key);

/** The row of `key`. */
export function connectionSetting(key: ConnectionKey): ConnectionSetting {
  return CONNECTION_SETTINGS.find((s) => s.key === key)!;
}

/** The setting's full description: summary, range, default and environment variable. */
export function describeSetting(s: ConnectionSetting): string {
  const range = s.min !== undefined && s.max !== undefined ? `, ${s.min} to ${s.max}` : s.values ? `; one of ${s.values.map((v) => `\`${v}\``).join(", ")}` : "";
  const dflt = s.default !== undefined ? ` (default ${s.default})` : "";
  return `${s.summary}${range}${dflt}. Also read from ${s.env}.`;
}
