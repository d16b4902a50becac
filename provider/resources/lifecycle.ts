/** Lifecycle helpers of create, read, update and delete: errors the engine shows, deletes that tolerate gone objects, the inputs a read returns. */
import { NotifyApiError, NotifyError, isNotFound } from "../client/errors";
import { isUnauthorized, UNAUTHORIZED_HINT } from "../config";

type Obj = Record<string, unknown>;

/** `Unable to <action>: <cause>` with the cause's own message, for errors the engine shows. */
export function failure(action: string, err: unknown, hint?: string): Error {
  const cause = err instanceof NotifyError || err instanceof Error ? err.message : String(err);
  // A refused key is the one failure whose fix is outside the program: say where the key comes from.
  const hints = [hint, err instanceof NotifyApiError && isUnauthorized(err) ? UNAUTHORIZED_HINT : undefined].filter(Boolean);
  const e = new Error(`Unable to ${action}: ${cause}${hints.map((h) => `. ${h}`).join("")}`);
  if (err instanceof NotifyApiError) (e as Error & { status?: number }).status = err.status;
  return e;
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
