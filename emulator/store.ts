/** The emulator's in-memory store, optionally saved to a JSON file. */
import { readFileSync, writeFileSync, renameSync, existsSync } from "node:fs";
import type { StoredLists } from "./records";

/** An API key and where its records live. */
export interface Tenant {
  environmentId: string;
  organizationId: string;
}

export type Json = Record<string, unknown>;

/**
 * Everything the service holds, across environments (records carry `_environmentId`): the lists of
 * the registered kinds (records.ts `StoredLists`), and what is not a list of records.
 */
export type StoreData = StoredLists & {
  /** The emulator's stand-in for public DNS: the MX host each domain name points at (set by a test control). */
  dnsMx: Record<string, string>;
};

/**
 * The records of the caller's environment: the one tenant filter every route uses. Integrations
 * listed organisation-wide (`GET /v1/integrations`, `/active`) pass `"organization"`.
 */
export function ofTenant<T extends { _environmentId: string; _organizationId: string }>(
  list: readonly T[], tenant: Tenant, scope: "environment" | "organization" = "environment",
): T[] {
  return scope === "environment"
    ? list.filter((r) => r._environmentId === tenant.environmentId)
    : list.filter((r) => r._organizationId === tenant.organizationId);
}

/**
 * Removes the translations of a deleted workflow or layout (by its database `_id`): the service
 * deletes the resource's translation group and every localization in it (the translation
 * package's DeleteTranslationGroupCommand: "used when a workflow is deleted, a layout is deleted").
 */
export function dropTranslationsOf(store: Store, resourceInternalId: string): void {
  store.data.translations = store.data.translations.filter((t) => t._resourceInternalId !== resourceInternalId);
}

/**
 * Holds the records; `version` changes on every write so derived indexes can be cached.
 *
 * The store is given its empty lists (kinds.ts `emptyLists`, from the registry of kinds) rather
 * than importing them: the route modules that declare the lists import this file.
 */
export class Store {
  data: StoreData;
  version = 0;
  private saveTimer?: NodeJS.Timeout;

  constructor(private readonly emptyLists: () => StoredLists, private readonly path?: string) {
    this.data = this.empty();
    if (path && existsSync(path)) {
      // The file's lists in the file's order, so that a file saved again is the same bytes; then,
      // empty, the lists the file predates.
      const loaded = JSON.parse(readFileSync(path, "utf8")) as Partial<StoreData>;
      this.data = { ...loaded, ...this.data, ...loaded };
    }
  }

  private empty(): StoreData {
    return { ...this.emptyLists(), dnsMx: {} };
  }

  /** Marks a write: bumps the version and schedules a save. */
  touch(): void {
    this.version++;
    if (this.path && !this.saveTimer) {
      this.saveTimer = setTimeout(() => this.save(), 200);
      this.saveTimer.unref();
    }
  }

  /** Writes the store to its file now (atomically). */
  save(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.path) return;
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.path);
  }

  /** Empties the store. */
  reset(): void {
    this.data = this.empty();
    this.touch();
  }
}
