/** The emulator's in-memory store, optionally saved to a JSON file. */
import { readFileSync, writeFileSync, renameSync, existsSync } from "node:fs";

/** An API key and where its records live. */
export interface Tenant {
  environmentId: string;
  organizationId: string;
}

export type Json = Record<string, unknown>;

/** Everything the service holds, across environments (records carry `_environmentId`). */
export interface StoreData {
  integrations: Json[];
  subscribers: Json[];
  workflows: Json[];
  events: Json[];
  messages: Json[];
}

const empty = (): StoreData => ({ integrations: [], subscribers: [], workflows: [], events: [], messages: [] });

/** Holds the records; `version` changes on every write so derived indexes can be cached. */
export class Store {
  data: StoreData = empty();
  version = 0;
  private saveTimer?: NodeJS.Timeout;

  constructor(private readonly path?: string) {
    if (path && existsSync(path)) {
      const loaded = JSON.parse(readFileSync(path, "utf8")) as Partial<StoreData>;
      this.data = { ...empty(), ...loaded };
    }
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
    this.data = empty();
    this.touch();
  }
}
