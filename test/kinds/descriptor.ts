/**
 * What the tests and the bench need of one resource kind, beside its field table: one descriptor
 * per kind (test/kinds/<kind>.ts), registered once in test/kinds/index.ts. Every part is required,
 * so a kind registered without one does not compile; a part a kind cannot have says why.
 *
 * The descriptors import nothing at run time but fast-check and the provider: the bench (compiled
 * with the package's sources) loads them too.
 */
import type fc from "fast-check";
import type { NotifyClient } from "../../provider/client/index";
import type * as Functions from "../../provider/functions/index";
import type { ResourceKind } from "../../provider/resources/index";
import type { TestEmulator } from "../helpers/emulator";

/** Inputs or an object as JSON. */
export type Obj = Record<string, unknown>;

/** Emulator modes a hand edit depends on (production hides some fields). */
export type Mode = "production" | "spec";

/** How a hand edit is applied: through the service's API, to the object of the resource's id in state. */
export type Apply = (emu: TestEmulator, id: string) => Promise<void>;

/**
 * Adds the edit of one declared input (nothing when the program does not declare it, so `make`
 * runs only then); the description says what a person did in the dashboard.
 */
export type AddEdit = (field: string, description: string, make: () => Apply) => void;

/**
 * One kind's adoption: what the service holds (made through the API, as the dashboard or another
 * tool would), the declared inputs equal to it, the requests an adoption of it sends, and a
 * declaration that differs with the writes it needs.
 */
export interface AdoptCase {
  /** Makes the object on the service. */
  seed(emu: TestEmulator): Promise<void>;
  /** The declared inputs (without adopt) equal to what the service holds. */
  equal: Obj;
  /** The requests (method and route) the adoption of the equal object sends: reads only. */
  reads: string[];
  /** A declaration that differs from the seeded object, and the writes (method and route) it needs, in order. */
  differing: Obj;
  writes: string[];
}

/** Where a bad input runs beyond `check`: `engine`, through the engine on both front ends too (test/e2e/badInput.test.ts). */
export interface BadInputOptions {
  engine?: boolean;
}

/** One bad input of a kind: label, inputs, the error `check` must give, where else it runs. */
export type BadInput = [label: string, inputs: Obj, expected: RegExp, options?: BadInputOptions];

/** What the bench's arguments of one resource may use beyond its index. */
export interface BenchRefs {
  /** How many of each kind the mix holds. */
  counts: Record<ResourceKind, number>;
  /** An output of the i-th resource of a kind registered before (the engine orders the two by it). */
  output(kind: ResourceKind, i: number, key: string): unknown;
  /** The run's tag (a domain name is claimed once across the service). */
  run: string;
}

/** A kind's part of a random stack or environment: at most `max` objects, unique by `unique` when given. */
export interface Share {
  max: number;
  /** The natural key two objects of one stack must not share. */
  unique?: (inputs: Obj) => unknown;
  /** Drops objects one stack cannot hold together (two primary integrations of one channel). */
  keep?: (list: Obj[]) => Obj[];
}

/** Requests one object of a kind costs, per operation. */
export interface RequestCounts {
  create: number;
  read: number;
  update: number;
  delete: number;
}

/**
 * A kind's request floor (#41): the least requests the service's API allows for each operation on
 * one object, written from the API (which request carries what, which answer says what, in
 * spec/openapi.json and production-notes.md), not from what the provider sends, so that the
 * tests and the bench hold the provider to it.
 */
export interface RequestFloor {
  /** For an object declared with `inputs`: a create (without adopt), a read (a refresh) beside `listing`, the update to `change(inputs)`, a delete. */
  of: (inputs: Obj) => RequestCounts;
  /** `inputs` with one field changed in place, each kind's field its own: the bench's update, and the tests'. */
  change: (inputs: Obj) => Obj;
  /** The listing a read takes the object from where the service has no read-one route: one request per operation, however many objects read from it. */
  listing: string | null;
  /**
   * The listing whose newest page answers one request of each read after a kind's first, where the
   * service lists the objects as its read-one route answers them (provider/client/shared.ts
   * `ListedReads`): reads of k objects of the kind cost the first read's requests, one page, and
   * each other read's requests but that one. One page holds 100: the floor holds while the
   * objects read are among the kind's newest hundred.
   */
  listedRead?: string;
}

/**
 * One kind's part of the e2e scenario over every kind (test/e2e/kinds.test.ts), beyond what its
 * other parts give (`setup` and `prepare` make what it needs, `handEdits` its hand edit, `adopt`
 * the object adopted and refused): the inputs the scenario's stack declares first. They must not
 * be the adopt case's object (`adopt.equal`), which the scenario makes on the service later.
 */
export interface Scenario {
  declared: Obj;
}

/**
 * What a case of test/conformance/openapi.test.ts has: a call whose answer is validated against
 * its operation's response in spec/openapi.json, a raw call for setting up, and the objects that
 * test makes before every case.
 */
export interface OpenapiContext {
  /** Calls `path` (of the case's operation) with the operation's method, expects `status`, validates the body against the operation's response; returns the body. */
  call(status: number, path: string, body?: unknown): Promise<any>;
  /** A raw call, for setting up (no validation). */
  api: TestEmulator["api"];
  mode: Mode;
  /**
   * Made before the cases: the integration slack-main (Slack, chat), the subscribers alice and
   * carol, the workflow welcome (a chat step, then an in_app one; triggered once to alice), the
   * layout base and the topic news.
   */
  made: {
    integrationId: string;
    workflowId: string;
    /** The welcome workflow as its create answered it. */
    workflowBody: { _id: string; steps: { _id: string; name: string; type: string; controlValues: unknown }[] };
    notificationId: string;
  };
  /** The test runner's `expect`, for an answer the document does not describe (the descriptors load no test runner). */
  expect(actual: unknown, message?: string): { toBe(expected: unknown): void; toEqual(expected: unknown): void };
}

/** One operation's case, keyed `METHOD /path` as spec/openapi.json and the emulator's route table write it. */
export type OpenapiCases = Readonly<Record<string, (c: OpenapiContext) => Promise<unknown>>>;

/** A resource's implementation module (provider/resources/<module>.ts), as the engine's plugins call it. */
export interface ResourceModule {
  provider: {
    check(olds: Obj, news: Obj): Promise<{ inputs: Obj; failures: unknown[] }>;
    diff(id: string, olds: Obj, news: Obj): Promise<{ changed: string[] }>;
    create(inputs: Obj): Promise<{ id: string; outs: Obj }>;
    read(id: string, props: Obj): Promise<{ id: string; props: Obj }>;
    update(id: string, olds: Obj, news: Obj): Promise<{ outs: Obj }>;
    delete(id: string, props: Obj): Promise<void>;
  };
}

/** An object a requests part made: its checked inputs, its id and its outputs. */
export interface Made {
  inputs: Obj;
  id: string;
  outs: Obj;
}

/**
 * What a kind's requests part is given by test/conformance/requests.test.ts, which makes before
 * every part the subscribers alice (with a first name and data, as the demo does) and bob, the
 * integration slack-main (Slack, chat, active) and the workflow welcome (an in_app step and a chat
 * step, translation off), and triggers welcome once; no layout (the first a part makes is the
 * environment's default).
 */
export interface RequestsHelpers {
  /** The implementation module `provider/resources/<module>.ts`, from source. */
  moduleOf(module: string): ResourceModule;
  /** `check` (no failure allowed), then `create`. */
  created(mod: ResourceModule, inputs: Obj): Promise<Made>;
  /** A client of the emulator: what makes an object the way the dashboard or another tool would (to adopt it). */
  client: NotifyClient;
  /** The provider's functions, connected to the emulator. */
  fns: typeof Functions;
  emu: TestEmulator;
}

/**
 * One kind's part of test/conformance/requests.test.ts, whose every request is validated against
 * spec/openapi.json's request schemas, read closed: the kind's check, create, read, update, adopt
 * and delete, its functions and the client calls only it uses, so that together the parts send
 * every operation of the client.
 */
export interface RequestsPart {
  /**
   * Sends the kind's requests but its deletes, and answers them: the test runs every kind's
   * deletes after every kind's part, kinds in the reverse order of their registration.
   */
  run(h: RequestsHelpers): Promise<() => Promise<void>>;
  /** The requests of the part the service refuses, `METHOD path status`, each with why. */
  refused: readonly string[];
}

/** Everything outside the provider needs of one resource kind. */
export interface KindDescriptor<K extends ResourceKind = ResourceKind> {
  kind: K;
  /** Valid inputs, every field of the table but adopt; `suffix` makes identifiers unique to a run. */
  inputs: (suffix: string) => fc.Arbitrary<Obj>;
  /** Makes, once per emulator, what every object of the kind needs (integrations, subscribers). */
  setup: ((emu: TestEmulator) => Promise<void>) | null;
  /** Makes what one object needs first (its subscriber, its workflow); harmless when repeated. */
  prepare: ((emu: TestEmulator, inputs: Obj) => Promise<void>) | null;
  /**
   * Facts about the service, written here rather than read from the provider's lists so that a
   * wrong list fails the property test instead of steering it: the inputs whose change replaces
   * the object, and those compared whole.
   */
  replaceOnChange: readonly string[];
  exact: readonly string[];
  /** The hand edits possible on declared inputs (secret fields only where the service shows them). */
  handEdits: (inputs: Obj, mode: Mode, add: AddEdit) => void;
  /** The request path that deletes the object behind the engine's back (id: the resource's id in state). */
  deletePath: (inputs: Obj, id: string) => string;
  /** Why the oracle never deletes an object of the kind by hand, or null. */
  undeletable: string | null;
  /** The objects of `declared` the service still holds (after a destroy, nothing). */
  remains: (state: Record<string, any[]>, declared: Obj[]) => unknown[];
  adopt: AdoptCase;
  /** The least requests its operations need. */
  floor: RequestFloor;
  /** Inputs `check` must refuse before any request, naming the property. */
  badInput: BadInput[];
  /** Its part of the oracle's random stacks. */
  stack: Share;
  /** Its part of the export soak's random environments, or why it has none. */
  exportSoak: (Share & { made?: (emu: TestEmulator, inputs: Obj, outs: Obj) => Promise<void> }) | { without: string };
  /** Its share of the bench mix (one in `per`, or the rest) and the arguments of its i-th resource. */
  bench: { per: number | "rest"; args: (i: number, r: BenchRefs) => Obj };
  scenario: Scenario;
  /** The cases of test/conformance/openapi.test.ts of the operations of the kind's API. */
  openapiCases: OpenapiCases;
  /** Its requests, validated against the service's contract. */
  requests: RequestsPart;
}

/** Fails on a status of 300 and above; the body otherwise. */
export async function ok(r: Promise<{ status: number; body: unknown }>, what: string): Promise<any> {
  const res = await r;
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

/** Inputs without one key. */
export const without = (o: Obj, k: string): Obj => { const c = { ...o }; delete c[k]; return c; };

/**
 * Every part of a descriptor, each with the test or program that uses it: a record over the
 * interface's keys, so the compiler keeps it complete, and test/unit/kinds/registration.test.ts
 * checks that every registered kind gives each one.
 */
export const PARTS = {
  kind: "the kind's name, its key in RESOURCES",
  inputs: "test/component/provider/resources/properties.test.ts, the oracle, the export soak",
  setup: "the property test, the oracle",
  prepare: "the property test, the oracle",
  replaceOnChange: "test/component/provider/resources/properties.test.ts",
  exact: "test/component/provider/resources/properties.test.ts",
  handEdits: "test/property/handEdits.ts",
  deletePath: "test/property/handEdits.ts",
  undeletable: "test/property/oracle.test.ts",
  remains: "test/property/oracle.test.ts",
  adopt: "test/component/provider/resources/adopt.test.ts",
  floor: "test/conformance/requests.test.ts, bench/programs.ts",
  badInput: "test/helpers/badInput.ts",
  stack: "test/property/oracle.test.ts",
  exportSoak: "test/property/export.test.ts",
  bench: "bench/programs.ts",
  scenario: "test/e2e/kinds.test.ts",
  openapiCases: "test/conformance/openapi.test.ts",
  requests: "test/conformance/requests.test.ts",
} as const satisfies Record<keyof KindDescriptor, string>;
