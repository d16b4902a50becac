/**
 * The shape of one kind of the emulator: the store lists it owns and the operations it serves,
 * both in the kind's route module. routes/index.ts registers each kind with one line; kinds.ts
 * derives the route table and the store's empty lists from that registry.
 */
import type { Route } from "./types";

/** One kind: its lists (a fresh, empty set on every call) and its operations, in match order. */
export interface EmulatorKind<L extends object = object> {
  readonly lists: () => L;
  readonly routes: readonly Route[];
}

/**
 * Declares a kind. Its module also adds its lists' types to the store's, beside this call:
 *
 *     const lists = () => ({ topics: list<TopicRecord>() });
 *     declare module "../records" { interface StoredLists extends ReturnType<typeof lists> {} }
 *     export const kind = emulatorKind({ lists, routes: [...] });
 *
 * (An augmentation rather than an import of the registry, so that the store, which every route
 * module reads, never imports the route modules: kinds.ts checks the two agree.)
 */
export function emulatorKind<L extends object = Record<never, never>>(part: { lists?: () => L; routes: readonly Route[] }): EmulatorKind<L> {
  return { lists: part.lists ?? (() => ({}) as L), routes: part.routes };
}

/** An empty list of `R` records: the type argument types the store's list. */
export function list<R>(): R[] {
  return [];
}
