/**
 * The contexts the service makes for a channel connection or endpoint (`removeCreatedContexts`):
 * the service creates each context of a create's `context` that it does not hold, with no data,
 * and nothing deletes it after. With the setting on, a create first reads its contexts (one GET
 * each, in parallel) and records in the `createdContextKeys` output those the service did not
 * hold; the delete then removes each of them that is still as the service made it and that
 * nothing else names:
 *
 *   - no channel connection or endpoint of the environment names it (one listing of each, after
 *     the object's own delete): the service keeps contexts by key, so a context another
 *     connection or endpoint names, of this stack or not, stays;
 *   - it holds no data (`{}`, as the service made it): data set since (a `Context` resource that
 *     adopted it, the dashboard) means someone uses it, and it stays.
 *
 * A context kept is said in a warning on the resource, with why. Off (the default), a create
 * and a delete send nothing more than before.
 */
import { z } from "zod";
import { clientFor } from "../config";
import { isNotFound } from "../client/errors";
import { changedKeys, stripUndefined } from "./diff";
import { field, output, type ResourceTable } from "./fields";
import { controlInputs, failure, warn } from "./lifecycle";

type Props = Record<string, unknown>;

/** The setting's input, the same on both kinds (`what`: "connection" or "endpoint"). */
export function removeCreatedContextsField(what: string) {
  return field(z.boolean().optional(), `On delete, also remove the contexts the service made for this ${what}'s create (its \`context\` ` +
    "entries the service did not hold then, recorded in `createdContextKeys`), each only while it holds no data and no channel connection or " +
    "endpoint names it (a context kept is said in a warning). Default false: the service keeps the contexts it made. Recorded at create: " +
    "set it on an existing object and nothing is recorded (replace the object to record them).", { local: true });
}

/** The output that records what the create made (only with the setting on). */
export function createdContextKeysOutput() {
  return output(z.array(z.string()).optional(), "The contexts (`type:id`) the service made for this object's create, which a delete with " +
    "`removeCreatedContexts` removes; recorded only when `removeCreatedContexts` was set at create.");
}

/** The keys (`type:id`) of a context input. */
export const keysOf = (context: Record<string, string> | undefined): string[] => Object.entries(context ?? {}).map(([t, id]) => `${t}:${id}`);

/**
 * The keys of `context` the service does not hold, read before a create with the setting on (one
 * GET each, in parallel); undefined with the setting off (nothing is read).
 */
export async function contextsNotHeld(inputs: Props): Promise<string[] | undefined> {
  if (inputs.removeCreatedContexts !== true) return undefined;
  const api = clientFor().contexts;
  const keys = keysOf(inputs.context as Record<string, string> | undefined);
  const held = await Promise.all(keys.map(async (key) => {
    const i = key.indexOf(":");
    try {
      await api.get(key.slice(0, i), key.slice(i + 1));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw failure(`read context "${key}" (removeCreatedContexts)`, err);
    }
  }));
  return keys.filter((_, i) => !held[i]);
}

/**
 * The outputs of the setting: `removeCreatedContexts` as declared, and `createdContextKeys` as
 * recorded: `made` at a create (those of them the object carries), else as `olds` recorded them.
 */
export function contextOutputs(declared: Props, made: string[] | undefined, liveKeys: readonly string[], olds?: Props): Props {
  const recorded = made !== undefined ? made.filter((k) => liveKeys.includes(k)) : olds?.createdContextKeys;
  return stripUndefined({ removeCreatedContexts: declared.removeCreatedContexts, createdContextKeys: recorded });
}

/**
 * The outputs of an update that changes the setting alone: the old state with the new setting
 * (nothing to send, the service does not hold it); undefined when another input changes.
 */
export function settingOnlyUpdate(table: ResourceTable, olds: Props, news: Props, keys: string[]): Props | undefined {
  const changed = changedKeys(olds, news, table.inputKeys, [], table.exactKeys);
  if (!changed.length || changed.some((k) => k !== "removeCreatedContexts")) return undefined;
  const { removeCreatedContexts: _dropped, ...rest } = olds;
  return stripUndefined({ ...rest, ...controlInputs(news, table.controlKeys), removeCreatedContexts: news.removeCreatedContexts, declaredKeys: keys });
}

/** The warning of a context the delete kept, and why. */
export function keptContextWarning(what: string, key: string, why: string): string {
  return `context "${key}", which the service made for ${what}, is kept: ${why} (removeCreatedContexts removes only a context with no data that no channel connection or endpoint names)`;
}

/**
 * After the object's delete, with the setting on in its state: removes each context its create
 * made that holds no data and that no channel connection or endpoint names, and warns of each
 * kept. Sends nothing with the setting off or nothing recorded.
 */
export async function removeCreatedContexts(what: string, props: Props): Promise<void> {
  const keys = Array.isArray(props.createdContextKeys) ? props.createdContextKeys.filter((k): k is string => typeof k === "string") : [];
  if (props.removeCreatedContexts !== true || !keys.length) return;
  const client = clientFor();
  const [connections, endpoints] = await Promise.all([client.channelConnections.list({}), client.channelEndpoints.list({})])
    .catch((err: unknown) => { throw failure(`list channel connections and endpoints (removeCreatedContexts of ${what})`, err); });
  for (const key of keys) {
    const connection = connections.find((c) => c.contextKeys?.includes(key));
    const endpoint = connection ? undefined : endpoints.find((e) => e.contextKeys?.includes(key));
    if (connection || endpoint) {
      const user = connection ? `channel connection "${connection.identifier}"` : `channel endpoint "${endpoint!.identifier}"`;
      await warn(keptContextWarning(what, key, `${user} names it`));
      continue;
    }
    const i = key.indexOf(":");
    const [type, id] = [key.slice(0, i), key.slice(i + 1)];
    try {
      const live = await client.contexts.get(type, id);
      if (live.data && Object.keys(live.data).length) {
        await warn(keptContextWarning(what, key, "it holds data set since"));
        continue;
      }
      await client.contexts.delete(type, id);
    } catch (err) {
      if (isNotFound(err)) continue; // already gone
      throw failure(`remove context "${key}" (removeCreatedContexts of ${what})`, err);
    }
  }
}
