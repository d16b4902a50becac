/**
 * Property maps between the engine's gRPC structs and the plain maps the implementation modules
 * take. The engine marks a secret as an object `{ [SIG_KEY]: SECRET_SIG, value }` at any depth
 * (the provider says it accepts secrets); the modules get the plain values, and what they return
 * goes back with every top-level key secret that held a secret or that the table says is secret.
 * Unknown values (the engine's UNKNOWN string, during preview) pass through as they are: the
 * modules' check and diff already leave them for the apply.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { stripUndefined } from "../resources/diff";

/** The key that marks the engine's special objects (secrets, assets, resource references). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The value of {@link SIG_KEY} that marks a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

type Props = Record<string, unknown>;

function isSecret(v: unknown): v is { value?: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v) && (v as Props)[SIG_KEY] === SECRET_SIG;
}

/** `v` without secret markers at any depth, and whether it held one. */
export function unwrapSecrets(v: unknown): { value: unknown; secret: boolean } {
  if (isSecret(v)) return { value: unwrapSecrets(v.value).value, secret: true };
  if (Array.isArray(v)) {
    const items = v.map(unwrapSecrets);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (typeof v === "object" && v !== null) {
    let secret = false;
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) {
      const r = unwrapSecrets(x);
      out[k] = r.value;
      secret ||= r.secret;
    }
    return { value: out, secret };
  }
  return { value: v, secret: false };
}

/** A request's property map: the plain values, and the top-level keys that held a secret. */
export interface Unmarshaled {
  props: Props;
  secrets: Set<string>;
}

/** The plain property map of a struct (an absent struct is an empty map), and its secret keys. */
export function fromStruct(s: Struct | undefined): Unmarshaled {
  const raw = s ? s.toJavaScript() : {};
  const props: Props = {};
  const secrets = new Set<string>();
  for (const [k, v] of Object.entries(raw)) {
    const r = unwrapSecrets(v);
    props[k] = r.value;
    if (r.secret) secrets.add(k);
  }
  return { props, secrets };
}

/** A struct of `props` (undefined values dropped), each key of `secret` marked secret. */
export function toStruct(props: Props, secret: Iterable<string> = []): Struct {
  const out: Props = stripUndefined({ ...props });
  for (const k of secret) if (out[k] !== undefined) out[k] = { [SIG_KEY]: SECRET_SIG, value: out[k] };
  return Struct.fromJavaScript(out as never);
}
