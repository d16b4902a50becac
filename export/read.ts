/**
 * Reads one API key's environment through the provider's client: every listing page, then one
 * read per workflow and per layout (their listings leave out steps and control values), the
 * subscriptions of each topic, the translations of each workflow and layout whose translation is
 * on (its locales, then one read per locale), and the routes of each domain. Nothing is written.
 * A progress line per kind goes to `progress`.
 */
import type { NotifyClient } from "../provider/client";
import { NotifyConfigError } from "../provider/client/errors";
import type { Environment } from "../provider/schemas";
import type { Skipped } from "./model";
import { readKinds, type RawEnvironment } from "./kinds";

/** What to read beyond the key's own environment. */
export interface ReadOptions {
  /** The API key (to find its environment in the organisation's list). */
  apiKey: string;
  /** List the organisation's environments (for Environment resources). */
  environments?: boolean;
  /** Subscribers to export, with their credentials. */
  subscribers?: readonly string[];
  /** The key's environment id, when the service does not show keys in the environments list. */
  environmentId?: string;
  /** Reads in flight at once (default 8). */
  concurrency?: number;
  progress?: (line: string) => void;
}

/** What a kind's read is given: the client, the options, the organisation's environments, the key's own, and the reading so far. */
export interface ReadContext {
  client: NotifyClient;
  opts: ReadOptions;
  list: Environment[];
  own: { _id: string };
  limit: number;
  progress: (line: string) => void;
  raw: Reading;
}

/** A reading in progress: the fields of the kinds read so far, and what could not be read. */
export type Reading = RawEnvironment & { unread: Skipped[] };

/** Reads the environment of the client's key. */
export async function readEnvironment(client: NotifyClient, opts: ReadOptions): Promise<RawEnvironment> {
  const progress = opts.progress ?? (() => undefined);
  const limit = opts.concurrency ?? 8;
  const list = await client.environments.list();
  const own = opts.environmentId
    ? list.find((e) => e._id === opts.environmentId) ?? { _id: opts.environmentId }
    : list.find((e) => (e.apiKeys ?? []).some((k) => k.key === opts.apiKey));
  if (!own) {
    throw new NotifyConfigError(
      "cannot tell which environment the API key belongs to: the service's environments list does not show API keys to this caller; " +
      "give the environment's id with --environment-id",
    );
  }
  progress(`environment: ${"name" in own ? own.name : own._id}`);

  // `unread`: what the organisation's plan keeps the key from reading, listed as skipped, never a crash.
  // The kinds' fields are added kind by kind (readKinds): a read sees those of the kinds read before it.
  const raw = { environment: { _id: own._id, name: "name" in own ? own.name : undefined }, unread: [] } as Partial<Reading> as Reading;
  await readKinds({ client, opts, list, own, limit, progress, raw });
  return raw;
}
