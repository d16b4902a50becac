/**
 * Names in an exported program: stack config keys of secrets, and each language's variable and
 * field names. Pure; every name is derived from the service's identifiers, so exporting twice
 * gives the same names, and made unique in the order given (the model's stable order). An update
 * (`notify-export --update`) passes the names the project's file already gives: those are kept,
 * so an object keeps its name whatever objects come and go around it.
 */
import type { Language } from "./render/common";

/** Words each language reserves (or its program's own names use), which a variable may not take. */
export const RESERVED: Record<Language, ReadonlySet<string>> = {
  typescript: new Set([
    "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export", "extends",
    "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super", "switch", "this", "throw",
    "true", "try", "typeof", "var", "void", "while", "with", "as", "implements", "interface", "let", "package", "private", "protected",
    "public", "static", "yield", "await", "any", "boolean", "number", "string", "symbol", "type", "from", "of", "arguments", "eval",
    "undefined", "NaN", "Infinity", "pulumi", "notify", "config", "output", "OUTPUTS", "require", "module", "exports",
  ]),
  python: new Set([
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except",
    "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
    "while", "with", "yield", "match", "case", "type", "pulumi", "notify", "config", "print", "id", "list", "dict", "str", "int", "bool",
  ]),
  go: new Set([
    "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto", "if", "import",
    "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var", "pulumi", "notify", "config", "cfg",
    "ctx", "err", "main", "nil", "true", "false", "iota", "string", "bool", "int", "len", "cap", "new", "make", "append", "copy", "error",
  ]),
  // Pulumi YAML refuses a resource named `pulumi` (its built-in variable); the words YAML reads as
  // null or booleans would need quotes as keys, so they are not taken either.
  yaml: new Set(["pulumi", "null", "true", "false", "yes", "no", "on", "off", "y", "n"]),
};

/** The words of a service identifier: runs of letters and digits, split at case changes. */
export function words(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** A variable name for `lang` from a service identifier (not yet unique): camelCase, or snake_case for Python. */
export function variableName(lang: Language, identifier: string, kind: string): string {
  const ws = words(identifier);
  if (ws.length === 0) ws.push(...words(kind));
  let name = lang === "python" ? ws.join("_") : ws[0] + ws.slice(1).map(cap).join("");
  if (/^[0-9]/.test(name)) name = (lang === "python" ? `${words(kind).join("_")}_` : words(kind)[0]! + "") + (lang === "python" ? name : cap(name));
  if (/^[0-9]/.test(name)) name = `r${name}`;
  return name;
}

/**
 * The first of `base`, `base` + suffix 2, 3, ... that `used` does not hold (nor the language
 * reserves); adds it to `used`.
 */
export function uniqueName(base: string, used: Set<string>, reserved: ReadonlySet<string> = new Set(), join: (b: string, n: number) => string = (b, n) => `${b}${n}`): string {
  let name = base;
  for (let n = 2; used.has(name) || reserved.has(name); n++) name = join(base, n);
  used.add(name);
  return name;
}

/**
 * Unique variable names for resources (in the order given), for `lang`. `previous` maps a
 * resource's model key (`<Kind>/<name>`) to the name an earlier export gave it: a resource found
 * there keeps it, and no other resource takes any name found there.
 */
export function variableNames(lang: Language, resources: readonly { name: string; kind: string; key?: string }[], previous: ReadonlyMap<string, string> = new Map()): string[] {
  const used = new Set<string>(previous.values());
  const join = lang === "python" ? (b: string, n: number) => `${b}_${n}` : (b: string, n: number) => `${b}${n}`;
  const keyOf = (r: { name: string; kind: string; key?: string }) => r.key ?? `${r.kind}/${r.name}`;
  return resources.map((r) => previous.get(keyOf(r)) ?? uniqueName(variableName(lang, r.name, r.kind), used, RESERVED[lang], join));
}

/**
 * A stack config key for a secret: the kind, the object's identifier and the field path, in
 * letters, digits and `-` (what `pulumi config set` takes without quoting), e.g.
 * `integration-sendgrid-main-credentials-apiKey`.
 */
export function configKey(kind: string, name: string, path: readonly string[]): string {
  const part = (s: string) => s.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "x";
  return [words(kind).join("-"), part(name), ...path.map(part)].join("-");
}

/**
 * The suffix that makes a config key unique (`...-apiKey--2`). A {@link configKey} never holds
 * `--`, so the key it was made from is always found again ({@link configKeyBase}).
 */
export const configKeySuffix = (base: string, n: number) => `${base}--${n}`;

/** The {@link configKey} a unique config key was made from: the key without its {@link configKeySuffix}. */
export const configKeyBase = (key: string) => key.replace(/--[0-9]+$/, "");

/** Python's name of a schema property, as Pulumi's Python code generator spells it (`apiKey` → `api_key`, `from` → `from_`). */
export function pythonName(prop: string): string {
  // pulumi/pulumi pkg/codegen/python: PyName splits camelCase, keeping runs of capitals together.
  let out = "";
  for (let i = 0; i < prop.length; i++) {
    const c = prop[i]!;
    const prev = prop[i - 1];
    const next = prop[i + 1];
    const upper = c >= "A" && c <= "Z";
    if (upper && i > 0 && prev !== "_" && ((prev !== undefined && !(prev >= "A" && prev <= "Z")) || (next !== undefined && next >= "a" && next <= "z"))) out += "_";
    out += c.toLowerCase();
  }
  return RESERVED_PY_PROPS.has(out) ? `${out}_` : out;
}
const RESERVED_PY_PROPS = new Set(["from", "import", "class", "def", "global", "lambda", "pass", "raise", "in", "is", "not", "or", "and", "as", "if", "else", "return", "while", "for", "with", "yield", "try", "except", "finally", "del", "assert", "break", "continue", "elif", "async", "await", "nonlocal", "none", "true", "false"]);

/** Go's name of a schema property, as Pulumi's Go code generator spells it (the first letter capitalised). */
export function goName(prop: string): string {
  return cap(prop);
}
