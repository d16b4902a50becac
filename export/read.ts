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
import { readKinds, type RawEnvironment, type ReadContext, type ReadOptions, type Reading } from "./kinds";

export type { ReadContext, ReadOptions, Reading } from "./kinds";

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
