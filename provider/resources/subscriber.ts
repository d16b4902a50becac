/**
 * Subscriber: a recipient the stack keeps in code (an on-call rota, an ops mailbox, a QA user),
 * with the profile the service renders into messages.
 *
 *   check   no request
 *   diff    no request
 *   create  with adopt, GET /v2/subscribers/{subscriberId} first; else POST /v2/subscribers with
 *           `failIfExists=true`: the service's create is an upsert, which would silently take over a
 *           subscriber of that id, so the provider asks for its 409 and refuses (or, after our own
 *           retried create, adopts)
 *   read    GET /v2/subscribers/{subscriberId}
 *   update  PATCH /v2/subscribers/{subscriberId} with the declared profile (nothing when none is declared)
 *   delete  DELETE /v2/subscribers/{subscriberId}: the service removes its credentials, preferences and
 *           topic subscriptions with it (a 404 counts as done)
 *
 * The v2 API takes no channels (the controller's own note: "In Subscriber V2 API endpoint we haven't
 * added channels yet"): a subscriber's chat and push credentials are SubscriberCredentials resources,
 * which name the subscriber by `subscriberId`.
 */
import { z } from "zod";
import { clientFor } from "../config";
import { JsonObject, type Subscriber as ApiSubscriber } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import { checkWith, topLevel, unknownKeyHint, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, stripUndefined } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, deleteIfPresent, failure, findIfPresent, gone, readIfPresent, readInputs } from "./lifecycle";

/**
 * The service's rule of an id (packages/shared/src/consts/validIdRegex.ts `VALID_ID_REGEX`, which its
 * dashboard applies to subscriberIds, novuhq/novu#7758): letters, digits, `_`, `:`, `.` and `-`, or an
 * email address.
 */
export const SUBSCRIBER_ID = /^[a-zA-Z0-9_:.-]+$|^\S+@\S+\.\S+$/;

/**
 * A subscriberId as the service takes it: matching {@link SUBSCRIBER_ID}, which also keeps out the
 * surrounding spaces the service trims (a trimmed id would read back as another one).
 */
export const SubscriberIdInput = z.string().min(1, { error: "must not be empty" }).regex(SUBSCRIBER_ID, {
  error: "must be letters, digits, _, :, . and - (e.g. `ops-oncall`), or an email address (the service's rule for ids)",
});

/** A profile text: the service's create drops an empty one (`body.firstName || undefined`), so it could never read back. */
const profileText = (what: string) => z.string().min(1, { error: `must not be empty (the service's create ignores an empty ${what}: leave the field out)` });

/** An IANA time zone, as the service's `IsTimeZone` checks it (through Intl, as Node.js does here). */
function isTimeZone(v: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

/** A locale tag: a language of 2 or 3 letters, then subtags joined by `-` or `_` (the service's `IsLocale`). */
const LOCALE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;
/** An email address as the service's `IsEmail` needs it at the least: something, `@`, a domain with a dot. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The field table of a {@link Subscriber}. */
export const SUBSCRIBER = defineResource({
  name: "Subscriber",
  module: "subscriber",
  doc: "A subscriber of the environment: a recipient the stack keeps in code (an on-call rota, an ops mailbox, a QA user), " +
    "with the profile the service renders into messages. The id, and the import id, is the subscriberId. Its chat and push " +
    "credentials are `SubscriberCredentials` resources: pass this resource's `subscriberId` output to theirs, so that the engine " +
    "makes the subscriber first and deletes it last. Deleting the subscriber deletes its credentials, preferences and topic " +
    "subscriptions with it. A profile field left out is not managed (the service keeps what it holds).",
  inputs: {
    subscriberId: field(SubscriberIdInput, "The subscriber's id in your application: letters, digits, `_`, `:`, `.` and `-`, or an email address. " +
      "Changing it replaces the subscriber.", { createOnly: true }),
    firstName: field(profileText("first name").optional(), "First name."),
    lastName: field(profileText("last name").optional(), "Last name."),
    email: field(profileText("email").regex(EMAIL, { error: "must be an email address (name@example.com)" }).optional(), "Email address."),
    phone: field(profileText("phone").optional(), "Phone number, as the SMS provider takes it (E.164, `+15551234567`, for most)."),
    avatar: field(profileText("avatar").optional(), "Avatar image URL or identifier."),
    locale: field(profileText("locale").regex(LOCALE, { error: "must be a locale such as `en`, `en-US` or `fr_FR`" }).optional(),
      "Locale, which picks the translations the subscriber receives (`en-US`, `fr_FR`)."),
    timezone: field(profileText("timezone").refine(isTimeZone, { error: "must be an IANA time zone such as `Europe/Paris` or `America/New_York`" }).optional(),
      "IANA time zone (`Europe/Paris`), used for the subscriber's delivery schedule."),
    data: field(JsonObject.optional(), "Custom data of the subscriber, a JSON object, compared whole (the service replaces it on every write). Left out, " +
      "the data is not managed (and not compared); the service then holds `{}` for a subscriber this stack creates.", { exact: true }),
    adopt: field(z.boolean().optional(), "Take over an existing subscriber with the same subscriberId instead of failing.", { control: true }),
  },
  outputs: {
    databaseId: output(z.string(), "The service's `_id` of the subscriber (not the subscriberId)."),
    createdAt: output(z.string().optional(), "When the subscriber was created (ISO 8601)."),
  },
});

/** Inputs of a {@link Subscriber}. */
export type SubscriberArgs = ArgsOf<typeof SUBSCRIBER>;
/** The state of a {@link Subscriber}: the service's view, each declared input as declared. */
export type SubscriberState = StateOf<typeof SUBSCRIBER>;

type Inputs = z.infer<typeof SUBSCRIBER.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

/** Maps the service's subscriber to outputs (null fields, which the service answers for unset ones, are left out). */
export function toSubscriberOutputs(s: ApiSubscriber): Props {
  return stripUndefined({ ...serviceFields(SUBSCRIBER, s), data: s.data ?? {}, databaseId: s._id, createdAt: s.createdAt });
}

function outputsFor(s: ApiSubscriber, declared: Props, keys: string[]): SubscriberState {
  return stripUndefined({ ...toSubscriberOutputs(s), ...controlInputs(declared, SUBSCRIBER.controlKeys), declaredKeys: keys }) as SubscriberState;
}

/** The check's hint for a misplaced `channels`: the v2 subscriber takes none; credentials are a resource of their own. */
function hint(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === "unrecognized_keys" && issue.keys.includes("channels")) {
    return "unknown property \"channels\": a subscriber's chat and push credentials are SubscriberCredentials resources " +
      "(subscriberId: this subscriber's subscriberId output), and its channel choices a SubscriberPreferences resource";
  }
  return unknownKeyHint(Object.keys(SUBSCRIBER.inputs))(issue);
}

/** Takes an existing subscriber over: written only where its profile differs from the declared one. */
function adopt(existing: ApiSubscriber, raw: Props, keys: string[]) {
  const id = existing.subscriberId;
  return adoptExisting(`subscriber "${id}"`, {
    id, compared: outputsFor(existing, raw, keys) as unknown as Props, inputs: raw, diff: provider.diff,
    update: async (olds) => {
      try {
        return (await provider.update(id, olds, raw)).outs;
      } catch (e) {
        throw failure(`adopt subscriber "${id}"`, e);
      }
    },
  });
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    return { inputs: stripUndefined(news), failures: checkWith(SUBSCRIBER.schema, news, topLevel(hint)) };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(SUBSCRIBER, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, SUBSCRIBER.inputKeys);
    const api = clientFor().subscribers;
    const id = inputs.subscriberId;
    return createOrAdopt({
      what: `subscriber "${id}"`, adopt: inputs.adopt,
      refuse: `A subscriber "${id}" already exists; set adopt: true to manage it with this stack`,
      find: () => findIfPresent(() => api.get(id)),
      takeOver: (existing) => adopt(existing, raw, keys),
      create: () => api.create(requestBody(SUBSCRIBER, inputs, "create"), { failIfExists: true }),
      created: (live) => ({ id, outs: outputsFor(live, raw, keys) }),
    });
  },

  async read(id: string, props: Props) {
    const live = await readIfPresent(`read subscriber "${id}"`, () => clientFor().subscribers.get(id));
    if (!live) return gone();
    // An import (no state yet) declares every field the service holds.
    const keys = declaredKeysOf(props) ?? SUBSCRIBER.inputKeys.filter((k) => toSubscriberOutputs(live)[k] !== undefined);
    const outs = outputsFor(live, props, keys);
    return { id, props: outs, inputs: readInputs(props, outs, keys, SUBSCRIBER.controlKeys) };
  },

  async update(id: string, _olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, SUBSCRIBER.inputKeys);
    const api = clientFor().subscribers;
    try {
      // A field no longer declared is left as the service holds it: its PATCH ignores null for every field but email.
      const body: RequestBody<"SubscribersController_patchSubscriber"> = requestBody(SUBSCRIBER, inputs, "update");
      const live = Object.keys(body).length ? await api.update(id, body) : await api.get(id);
      return { outs: outputsFor(live, news, keys) };
    } catch (err) {
      throw failure(`update subscriber "${id}"`, err);
    }
  },

  async delete(id: string) {
    await deleteIfPresent(`delete subscriber "${id}"`, () => clientFor().subscribers.delete(id));
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
