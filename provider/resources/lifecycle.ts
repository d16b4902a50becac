/**
 * The lifecycle every resource shares, written once: a create that takes over an existing object
 * with `adopt` and refuses one without ({@link createOrAdopt}), a read's 404 as gone
 * ({@link readIfPresent}), a delete's 404 as done ({@link deleteIfPresent}); and the errors and
 * warnings the engine shows, and the inputs a read returns. Each resource module gives the hooks
 * only it has (its requests, its natural key, its message).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { NotifyApiError, NotifyConflictError, NotifyError, isConflict, isNotFound } from "../client/errors";
import { isUnauthorized, UNAUTHORIZED_HINT } from "../config";
import type { DiffResult } from "./diff";

type Obj = Record<string, unknown>;
type Props = Obj;

/** `Unable to <action>: <cause>` with the cause's own message, for errors the engine shows. */
export function failure(action: string, err: unknown, hint?: string): Error {
  const cause = err instanceof NotifyError || err instanceof Error ? err.message : String(err);
  // A refused key is the one failure whose fix is outside the program: say where the key comes from.
  const hints = [hint, err instanceof NotifyApiError && isUnauthorized(err) ? UNAUTHORIZED_HINT : undefined].filter(Boolean);
  // Each hint a sentence of its own, without a second full stop after a message that ends with one.
  const text = hints.reduce<string>((t, h) => `${t}${/[.!?]$/.test(t) ? "" : "."} ${h}`, cause);
  const e = new Error(`Unable to ${action}: ${text}`);
  if (err instanceof NotifyApiError) Object.assign(e, { status: err.status, code: err.code });
  return e;
}

/**
 * An operation that wrote the object and then failed: the engine records the object (its `id` and
 * its state, `properties`) with the failure's `reasons` as its initialization errors, fails the
 * operation with the message, and retries with an update on the next `pulumi up` even when nothing
 * else changed. So a failure found after the write loses nothing: the object stays in the stack.
 * The dynamic-provider plugin reads these three fields of a thrown error (grpcResponseFromError
 * of @pulumi/pulumi's cmd/dynamic-provider); the native plugin sends the same (provider/native/server.ts).
 */
export class ResourceInitFailure extends Error {
  constructor(message: string, readonly id: string, readonly properties: Props, readonly reasons: string[]) {
    super(message);
    this.name = "ResourceInitFailure";
  }
}

/** Where {@link warn} sends a warning (engineLog.ts defines it beside the engine's own sink). */
export type { WarningSink } from "./engineLog";
import type { WarningSink } from "./engineLog";

/**
 * The sink of a process no engine started (a test or a script calling a module): stderr, which its
 * user reads. Never a plugin's: there stderr reaches only the engine's debug log.
 */
const toStderr: WarningSink = async (message, urn) => {
  console.warn(`warning: ${urn ? `${urn}: ` : ""}${message}`);
};

/**
 * The process's own sink, the one way both front ends warn: the engine that started the process,
 * as a warning diagnostic on the resource (engineLog.ts); in a process no engine started, stderr. Every plugin the engine
 * starts, the native one and the engine's dynamic-provider plugin alike, has the engine's address
 * as its last argument, so no front end sets anything up, and a `__provider` of any version of
 * this package warns the same way. Chosen at the first warning: a process that never warns never
 * loads the engine's client.
 */
function processSink(): WarningSink {
  const { engineAddress, engineWarnings } = require("./engineLog") as typeof import("./engineLog");
  const address = engineAddress(process.argv.slice(2));
  return address ? engineWarnings(address) : toStderr;
}

/** The sink {@link setWarningSink} gave, else the process's own once the first warning chose it. */
let warningSink: WarningSink | undefined;

/** The URN of the resource each operation in flight is on ({@link onResource}). */
const operationUrn = new AsyncLocalStorage<string>();

/**
 * Runs `operation` as one on the resource `urn`: every {@link warn} within it, however deep and
 * however many operations run at once, is a warning on that resource. Each front end runs each
 * operation through here with the URN it has: the native plugin the request's, the dynamic
 * resources the `__urn` their class computed (dynamic.ts). An empty `urn` (an invoke, or a state
 * written before resources carried `__urn`) makes the warnings the stack's.
 */
export function onResource<T>(urn: string, operation: () => Promise<T>): Promise<T> {
  return operationUrn.run(urn, operation);
}

/**
 * Tells the user `message` as a warning on the resource being operated on ({@link onResource}).
 * Every warning of the implementation modules goes through here, so both front ends show the same
 * text on the same resource, as a warning diagnostic of the engine ({@link processSink}). Resolves once
 * the warning is delivered (the engine may stop the provider right after the operation answers);
 * never rejects.
 */
export async function warn(message: string): Promise<void> {
  const urn = operationUrn.getStore() ?? "";
  warningSink ??= processSink();
  await warningSink(message, urn);
}

/**
 * Makes every later {@link warn} of this process go to `sink` (a test catching warnings), or with
 * undefined to the process's own ({@link processSink}); returns the sink before, undefined when no
 * warning has chosen one yet.
 */
export function setWarningSink(sink: WarningSink | undefined): WarningSink | undefined {
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

/** The object `get` answers, or undefined when the service answers 404 (no such object); any other failure is thrown as is. */
export async function findIfPresent<T>(get: () => Promise<T>): Promise<T | undefined> {
  try {
    return await get();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * A read's request: the object `get` answers, or undefined when the service no longer has it (a
 * 404, which a read answers with {@link GONE}: the engine drops it from the stack); any other
 * failure is `Unable to <action>`.
 */
export async function readIfPresent<T>(action: string, get: () => Promise<T>): Promise<T | undefined> {
  return findIfPresent(get).catch((err: unknown) => { throw failure(action, err); });
}

/** A read's answer for an object the service no longer has: the engine removes it from the stack. */
export function gone(): { id: ""; props: Props } {
  return { id: "", props: {} };
}

/** What a create answers the engine. */
export interface Created {
  id: string;
  outs: object;
}

/** The hooks of one kind for {@link createOrAdopt}. */
export interface CreateOrAdopt<Found, Made> {
  /** The object as messages name it (`topic "news:daily"`): the actions are `create <what>` and `adopt <what>`. */
  what: string;
  /** The program's `adopt` input. */
  adopt: boolean | undefined;
  /** The hint of the refusal when the object exists and `adopt` is not set: the kind's sentence naming `adopt: true`. */
  refuse: string;
  /** The existing object of the natural key, or undefined when there is none (a 404 is none). */
  find(): Promise<Found | undefined>;
  /** The create request(s). */
  create(): Promise<Made>;
  /** What a successful create answers: what follows the create request (a later write, a read) and the outputs. */
  created(made: Made): Promise<Created> | Created;
  /**
   * For a kind whose create is more than one request: the object's id and its state as the create's
   * answer alone shows it (none of the later writes). When a later step of {@link created} fails,
   * the object is reported with it as created but not initialised ({@link ResourceInitFailure}):
   * kept in the stack, and finished by the next `pulumi up`, whose diff against this state sends
   * the writes that did not happen.
   */
  partial?(made: Made): Created;
  /** Takes `existing` over, usually through {@link adoptExisting}. */
  takeOver(existing: Found): Promise<Created>;
  /**
   * How a create the service refused as a duplicate finds the object holding the key; default
   * {@link find}. For a kind whose look first needs more than the key (an integration's
   * environment), the object the refusal is about may be found where that look would not search.
   */
  conflicting?(): Promise<Found | undefined>;
  /**
   * Whether `existing`, found after a retried create without `adopt`, is the object that create
   * made before its answer was lost (an integration of the declared provider and channel); default
   * yes. One that is not is refused as the first attempt would have been.
   */
  ours?(existing: Found): boolean;
  /** Whether the create's failure says the natural key is taken; default a 409. */
  exists?(err: unknown): err is NotifyApiError;
  /** A hint for a failure of the create or of the look (e.g. which key's environment a request reached). */
  hint?(err: unknown): string | undefined;
}

/**
 * Creates the object, or takes over the one that holds its natural key:
 *
 * - with `adopt`, look first ({@link CreateOrAdopt.find}) and take over what is there, so an
 *   adoption of an object as declared sends no write;
 * - else create; when the service says the key is taken, refuse without `adopt` on the first
 *   attempt (the message names `adopt: true`), and otherwise look ({@link CreateOrAdopt.conflicting})
 *   and take over: made meanwhile by someone else (adopt), or by our own earlier attempt whose
 *   answer was lost before a retry ({@link CreateOrAdopt.ours}); after an answer lost on a server
 *   not known to honour idempotency keys, look before creating again, and take over what the lost
 *   create made.
 */
export async function createOrAdopt<Found, Made>(k: CreateOrAdopt<Found, Made>): Promise<Created> {
  const action = `create ${k.what}`;
  const look = (find: () => Promise<Found | undefined>) => find().catch((e: unknown) => { throw failure(`adopt ${k.what}`, e, k.hint?.(e)); });
  if (k.adopt) {
    const existing = await look(() => k.find());
    if (existing !== undefined) return k.takeOver(existing);
  }
  // The object of the natural key, found after a create that failed: taken over as that create's
  // own, or refused without adopt when it is not ours.
  const takeOverOurs = (existing: Found, err: unknown) => {
    if (!k.adopt && k.ours && !k.ours(existing)) throw failure(action, err, k.refuse);
    return k.takeOver(existing);
  };
  let made: Made;
  for (let attempt = 1; ; attempt++) {
    try {
      made = await k.create();
      break;
    } catch (err) {
      // An answer lost on a server not known to honour idempotency keys (the client throws it
      // `maybeWritten`): the object is looked up by its natural key before the create is sent
      // again, so no retry makes a second object, whatever the server does with the key.
      if (err instanceof NotifyError && err.maybeWritten && attempt < LOST_CREATE_ATTEMPTS) {
        const existing = await look(() => (k.conflicting ?? k.find).call(k));
        if (existing === undefined) continue;
        return takeOverOurs(existing, err);
      }
      if (!(k.exists ?? isConflict)(err)) throw failure(action, err, k.hint?.(err));
      if (!k.adopt && err.attempts <= 1) throw failure(action, err, k.refuse);
      const existing = await look(() => (k.conflicting ?? k.find).call(k));
      if (existing === undefined) throw failure(action, err, k.hint?.(err));
      return takeOverOurs(existing, err);
    }
  }
  if (!k.partial) return k.created(made);
  try {
    return await k.created(made);
  } catch (err) {
    if (err instanceof ResourceInitFailure) throw err;
    const { id, outs } = k.partial(made);
    const message = err instanceof Error ? err.message : String(err);
    const kept = `the ${k.what} was created and is kept in the stack; the next pulumi up finishes it`;
    throw new ResourceInitFailure(`${message}. ${kept[0]!.toUpperCase()}${kept.slice(1)}`, id, outs as Props, [message, kept]);
  }
}

/**
 * What a create answered under another natural key than the one sent: the service kept a second
 * object as `<key>-<suffix>` rather than refusing the taken key (a newer service's agents, the
 * 3.15.0 server's workflows). The duplicate is deleted again and the create fails as a 409 would,
 * so {@link createOrAdopt} refuses it naming `adopt: true`, or takes the existing object over. A
 * duplicate that cannot be deleted is named, with what to do: it is not the declared object, so
 * it is not recorded as it.
 */
export async function undoSuffixed(k: { kind: string; field: string; declared: string; answered: string; route: string; remove: () => Promise<unknown> }): Promise<never> {
  try {
    await k.remove();
  } catch (err) {
    throw failure(`create ${k.kind} "${k.declared}"`, err,
      `The service stored it as a second ${k.kind} "${k.answered}" because ${k.field} "${k.declared}" exists, and deleting that duplicate failed: ` +
      `delete ${k.kind} "${k.answered}" in the dashboard, then set adopt: true to manage the existing one`);
  }
  throw new NotifyConflictError({
    status: 409, method: "POST", path: k.route, attempts: 1,
    serviceMessage: `a ${k.kind} with ${k.field} "${k.declared}" exists (the service stored this one as "${k.answered}", which was deleted again)`,
  });
}

/** Attempts of a create whose answer is lost on a server that may not honour idempotency keys. */
const LOST_CREATE_ATTEMPTS = 3;


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
  /** The state an adoption that writes nothing answers: the existing object seen through the declared inputs; default {@link Adoption.compared}. */
  adopted?: () => Props;
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
  if (!diff.changes) return { id: a.id, outs: a.adopted ? a.adopted() : a.compared };
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
