/** Lifecycle helpers of create, read, update and delete: errors and warnings the engine shows, deletes that tolerate gone objects, the inputs a read returns. */
import { NotifyApiError, NotifyError, isNotFound } from "../client/errors";
import { isUnauthorized, UNAUTHORIZED_HINT } from "../config";
import type { DiffResult } from "./diff";

type Obj = Record<string, unknown>;
type Props = Obj;

/** `Unable to <action>: <cause>` with the cause's own message, for errors the engine shows. */
export function failure(action: string, err: unknown, hint?: string): Error {
  const cause = err instanceof NotifyError || err instanceof Error ? err.message : String(err);
  // A refused key is the one failure whose fix is outside the program: say where the key comes from.
  const hints = [hint, err instanceof NotifyApiError && isUnauthorized(err) ? UNAUTHORIZED_HINT : undefined].filter(Boolean);
  const e = new Error(`Unable to ${action}: ${cause}${hints.map((h) => `. ${h}`).join("")}`);
  if (err instanceof NotifyApiError) (e as Error & { status?: number }).status = err.status;
  return e;
}

/** Where {@link warn} sends a warning: the front end serving the operation sets it with {@link setWarningSink}. */
export type WarningSink = (message: string) => Promise<void>;

// Until a front end says where warnings go (a unit test calling a module directly), stderr.
let warningSink: WarningSink = async (message) => {
  console.warn(`warning: ${message}`);
};

/**
 * Tells the user `message` as a warning on the resource being operated on. Every warning of the
 * implementation modules goes through here, so both front ends show the same text: the native
 * plugin as a warning diagnostic on the resource (provider/native/server.ts), the dynamic
 * resources as a warning diagnostic of the stack (dynamic.ts). Resolves once the warning is
 * delivered (the engine may stop the provider right after the operation answers); never rejects.
 */
export async function warn(message: string): Promise<void> {
  await warningSink(message).catch(() => console.warn(`warning: ${message}`));
}

/** Makes every later {@link warn} of this process go to `sink` (the front end serving the operations calls it); returns the sink before. */
export function setWarningSink(sink: WarningSink): WarningSink {
  const before = warningSink;
  warningSink = sink;
  return before;
}

/**
 * Runs a delete; an object the service no longer has counts as deleted, so a delete repeated
 * after a lost answer, or of something removed by hand, succeeds.
 */
export async function deleteIfPresent(action: string, remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (err) {
    if (isNotFound(err)) return;
    throw failure(action, err);
  }
}

/** The control inputs (the table's `controlKeys`: adopt, check) present in `from`; outputs keep them so a refresh returns them. */
export function controlInputs(from: Obj, controlKeys: readonly string[]): Obj {
  const out: Obj = {};
  for (const k of controlKeys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

/** The inputs a read returns: the control inputs of the old outputs, and each declared key as now read. */
export function readInputs(props: Obj, outs: Obj, keys: readonly string[], controlKeys: readonly string[]): Obj {
  const inputs = controlInputs(props, controlKeys);
  for (const k of keys) inputs[k] = outs[k];
  return inputs;
}

/** What {@link adoptExisting} needs of a resource module, for one existing object. */
export interface Adoption {
  /** The resource id of the existing object. */
  id: string;
  /**
   * The existing object's state as the module's read gives it from the service alone: nothing a
   * service hides (an integration's credentials, a secret variable's values) is carried from the
   * program, so such a value cannot compare equal and is written.
   */
  compared: Props;
  /** The state an adoption that writes nothing answers: the existing object seen through the declared inputs. */
  adopted: () => Props;
  /** The declared (checked) inputs. */
  inputs: Props;
  /** The module's diff. */
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  /** Brings the object from `compared` to the inputs, sending only what differs; answers the new state. */
  update(olds: Props): Promise<object>;
}

/**
 * Takes an existing object over, writing nothing when it already is as declared: the module's own
 * diff compares the declared inputs with the service's values (the comparison a preview makes);
 * no change answers {@link Adoption.adopted} with no request sent, a change goes through the
 * module's update, which sends only what differs. A difference that only a replacement could make
 * fails, naming the fields: adopting never deletes what exists.
 */
export async function adoptExisting(what: string, a: Adoption): Promise<{ id: string; outs: object }> {
  const diff = await a.diff(a.id, a.compared, a.inputs);
  if (!diff.changes) return { id: a.id, outs: a.adopted() };
  if (diff.replaces.length) {
    throw new Error(`Unable to adopt ${what}: the existing object differs in ${diff.replaces.join(", ")}, which the service cannot change in place; ` +
      "declare the values it holds, or remove adopt: true and give the resource another natural key");
  }
  return { id: a.id, outs: await a.update(a.compared) };
}

/** `props` without `keys`: the prior state a comparison reads with, so nothing hidden is carried from the program. */
export function without(props: Props, keys: readonly string[]): Props {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !keys.includes(k)));
}
