/**
 * Subscriber operations: search, get, create, patch, delete, provider credentials, and
 * preferences. The preferences' wire shapes live here, beside the operations that read them
 * (`GetSubscriberPreferencesDto` and `PatchSubscriberPreferencesDto` of spec/openapi.json).
 */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import { Subscriber, SubscriberSearchPage, type CreateSubscriberBody, type PatchSubscriberBody, type UpdateSubscriberCredentialsBody, type OrderDirection } from "../schemas";
import type { HttpTransport } from "./http";

/** One channel type's choice each (`SubscriberPreferenceChannels`): only the channel types the service shows. */
export const PreferenceChannels = z.looseObject({
  email: z.boolean().optional(),
  sms: z.boolean().optional(),
  in_app: z.boolean().optional(),
  chat: z.boolean().optional(),
  push: z.boolean().optional(),
});
export type PreferenceChannels = z.infer<typeof PreferenceChannels>;

/** A delivery window of one day (`TimeRangeDto`). */
const TimeRange = z.looseObject({ start: z.string(), end: z.string() });
/** One day of a delivery schedule (`DayScheduleDto`). */
const DaySchedule = z.looseObject({ isEnabled: z.boolean(), hours: z.array(TimeRange).optional() });
/** A subscriber's delivery schedule (`ScheduleDto`), as stored. */
export const PreferenceSchedule = z.looseObject({
  isEnabled: z.boolean(),
  weeklySchedule: z.record(z.string(), DaySchedule).optional(),
});
export type PreferenceSchedule = z.infer<typeof PreferenceSchedule>;

/** One workflow's preferences of a subscriber, merged as delivery sees them (`SubscriberWorkflowPreferenceDto`). */
export const WorkflowPreference = z.looseObject({
  enabled: z.boolean(),
  channels: PreferenceChannels,
  overrides: z.array(z.looseObject({ channel: z.string(), source: z.string() })).optional(),
  workflow: z.looseObject({ slug: z.string().optional(), identifier: z.string(), name: z.string().optional(), updatedAt: z.string().optional() }),
  /** Present only when the subscriber set this workflow's preferences (the document's description). */
  updatedAt: z.string().optional(),
});
export type WorkflowPreference = z.infer<typeof WorkflowPreference>;

/** A subscriber's preferences (`GetSubscriberPreferencesDto`): global, and per active workflow. */
export const SubscriberPreferences = z.looseObject({
  global: z.looseObject({ enabled: z.boolean(), channels: PreferenceChannels, schedule: PreferenceSchedule.nullable().optional() }),
  workflows: z.array(WorkflowPreference),
});
export type SubscriberPreferences = z.infer<typeof SubscriberPreferences>;
/** A subscriber's preferences as getSubscriberPreferences returns them (a type name apart from the SubscriberPreferences resource's). */
export const SubscriberPreferencesResult = SubscriberPreferences.meta({
  id: "SubscriberPreferencesResult",
  description: "A subscriber's preferences: the global ones (the channels active workflows use, and the delivery schedule) and each active workflow's, merged as delivery applies them.",
});

/** Which workflows a preferences read lists: those whose preferences are not read-only (the service's default), those that are, or all. */
export type PreferenceCriticality = "nonCritical" | "critical" | "all";

/** Query of `GET /v2/subscribers`. */
export interface SearchSubscribersQuery {
  after?: string;
  before?: string;
  limit?: number;
  orderDirection?: z.infer<typeof OrderDirection>;
  orderBy?: string;
  includeCursor?: boolean;
  email?: string;
  name?: string;
  phone?: string;
  subscriberId?: string;
}

/** `/v1/subscribers` and `/v2/subscribers` */
export class SubscribersApi {
  constructor(private readonly http: HttpTransport) {}

  /** `GET /v2/subscribers` */
  search(query: SearchSubscribersQuery = {}): Promise<SubscriberSearchPage> {
    return this.http.request({ operation: "search subscribers", method: "GET", route: "/v2/subscribers", query: { ...query }, schema: SubscriberSearchPage });
  }

  /** `GET /v2/subscribers/{subscriberId}` */
  get(subscriberId: string): Promise<Subscriber> {
    return this.http.request({ operation: `get subscriber "${subscriberId}"`, method: "GET", route: "/v2/subscribers/{subscriberId}", params: { subscriberId }, schema: Subscriber });
  }

  /**
   * `POST /v2/subscribers` (production): an upsert, which updates a subscriber of that id; with
   * `failIfExists` the service answers 409 instead.
   */
  create(body: CreateSubscriberBody, options: { failIfExists?: boolean } = {}): Promise<Subscriber> {
    return this.http.request({
      operation: `create subscriber "${body.subscriberId}"`, method: "POST", route: "/v2/subscribers", creates: true, body, schema: Subscriber,
      query: options.failIfExists ? { failIfExists: true } : undefined,
    });
  }

  /** `PATCH /v2/subscribers/{subscriberId}` */
  update(subscriberId: string, body: PatchSubscriberBody): Promise<Subscriber> {
    return this.http.request({ operation: `update subscriber "${subscriberId}"`, method: "PATCH", route: "/v2/subscribers/{subscriberId}", params: { subscriberId }, body, schema: Subscriber });
  }

  /** `DELETE /v2/subscribers/{subscriberId}`: the subscriber with its credentials, preferences and topic subscriptions. */
  async delete(subscriberId: string): Promise<void> {
    await this.http.request({ operation: `delete subscriber "${subscriberId}"`, method: "DELETE", route: "/v2/subscribers/{subscriberId}", params: { subscriberId }, schema: undefined });
  }

  /** `GET /v2/subscribers/{subscriberId}/preferences`: global, and the active workflows' of `criticality` (the service's default `nonCritical`). */
  preferences(subscriberId: string, criticality?: PreferenceCriticality): Promise<SubscriberPreferences> {
    return this.http.request({
      operation: `get preferences of subscriber "${subscriberId}"`, method: "GET", route: "/v2/subscribers/{subscriberId}/preferences",
      params: { subscriberId }, query: { criticality }, schema: SubscriberPreferences,
    });
  }

  /**
   * `PATCH /v2/subscribers/{subscriberId}/preferences`: one workflow's (with `workflowId`) or the
   * global ones; only the channels sent change. Answers the preferences as GET does (non-critical).
   */
  updatePreferences(subscriberId: string, body: RequestBody<"SubscribersController_updateSubscriberPreferences">): Promise<SubscriberPreferences> {
    return this.http.request({
      operation: `update preferences of subscriber "${subscriberId}"`, method: "PATCH", route: "/v2/subscribers/{subscriberId}/preferences",
      params: { subscriberId }, body, schema: SubscriberPreferences,
    });
  }

  /** `PUT /v1/subscribers/{subscriberId}/credentials`: creates or replaces one provider's credentials. */
  updateCredentials(subscriberId: string, body: UpdateSubscriberCredentialsBody): Promise<Subscriber> {
    return this.http.request({ operation: `update credentials of subscriber "${subscriberId}"`, method: "PUT", route: "/v1/subscribers/{subscriberId}/credentials", params: { subscriberId }, body, schema: Subscriber });
  }

  /** `DELETE /v1/subscribers/{subscriberId}/credentials/{providerId}` (production): every entry of that provider. */
  async deleteCredentials(subscriberId: string, providerId: string): Promise<void> {
    await this.http.request({ operation: `delete ${providerId} credentials of subscriber "${subscriberId}"`, method: "DELETE", route: "/v1/subscribers/{subscriberId}/credentials/{providerId}", params: { subscriberId, providerId }, schema: undefined });
  }
}
