/** Subscriber shapes of spec/api.md, the search page, and the bodies of its writes. */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import { HttpUrl, JsonObject, SafeString, Timestamp, type SubscriberProviderId } from "./common";

/** Channel credentials of a subscriber for one provider. */
const channelCredentialShape = {
  webhookUrl: z.string().optional(),
  channel: z.string().optional(),
  deviceTokens: z.array(z.string()).optional(),
  alertUid: z.string().optional(),
  title: z.string().optional(),
  imageUrl: z.string().optional(),
  state: z.string().optional(),
  externalUrl: z.string().optional(),
};
export const CHANNEL_CREDENTIAL_KEYS = Object.keys(channelCredentialShape) as (keyof typeof channelCredentialShape)[];
/** Channel credentials as the service returns them. */
export const ChannelCredentials = z.looseObject(channelCredentialShape);
/** Channel credentials as we send them (unknown keys refused). */
export const ChannelCredentialsInput = z.strictObject({
  webhookUrl: HttpUrl.optional().describe("Webhook URL (Slack, Discord, Teams, ...), an http(s) URL."),
  channel: z.string().optional().describe("Channel name or id."),
  // The service keeps one of each token, so a repeated one would read back as a change forever.
  deviceTokens: z.array(SafeString(4096).min(1, { error: "must not be empty" })).max(1000)
    .refine((tokens) => new Set(tokens).size === tokens.length, { error: "must not repeat a token (the service keeps one of each)" })
    .optional().describe("Push device tokens (at most 1,000)."),
  alertUid: z.string().optional().describe("Grafana OnCall alert id (production does not store it; see SubscriberCredentials)."),
  title: z.string().optional().describe("Grafana OnCall title."),
  imageUrl: HttpUrl.optional().describe("Grafana OnCall image, an http(s) URL."),
  state: z.string().optional().describe("Grafana OnCall state."),
  externalUrl: HttpUrl.optional().describe("Grafana OnCall link, an http(s) URL."),
} satisfies Record<keyof typeof channelCredentialShape, z.ZodType>).meta({
  id: "ChannelCredentials",
  description: "A subscriber's credentials for one chat or push provider. Unknown keys are refused.",
});
export type ChannelCredentials = z.infer<typeof ChannelCredentialsInput>;

/** One provider entry of a subscriber's `channels`. */
export const ChannelSettings = z.looseObject({
  providerId: z.string(),
  integrationIdentifier: z.string().optional(),
  credentials: ChannelCredentials.optional(),
  _integrationId: z.string().optional(),
});
export type ChannelSettings = z.infer<typeof ChannelSettings>;

/** A subscriber as the service returns it. */
export const Subscriber = z.looseObject({
  _id: z.string().optional(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  avatar: z.string().nullable().optional(),
  locale: z.string().nullable().optional(),
  channels: z.array(ChannelSettings).optional(),
  topics: z.array(z.string()).optional(),
  isOnline: z.boolean().nullable().optional(),
  lastOnlineAt: z.string().nullable().optional(),
  __v: z.number().optional(),
  data: JsonObject.nullable().optional(),
  timezone: z.string().nullable().optional(),
  subscriberId: z.string(),
  _organizationId: z.string(),
  _environmentId: z.string(),
  deleted: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Subscriber = z.infer<typeof Subscriber>;
/**
 * A subscriber as getSubscriber and getSubscribers return it. Its type is `SubscriberResult`:
 * `Subscriber` is the resource's name, and a type of the same token would be renamed in the Go SDK.
 */
export const SubscriberResult = Subscriber.meta({ id: "SubscriberResult", description: "A subscriber of the environment, as the service returns it." });

/** One page of `GET /v2/subscribers`. */
export const SubscriberSearchPage = z.looseObject({
  data: z.array(Subscriber),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  totalCount: z.number(),
  totalCountCapped: z.boolean(),
});
export type SubscriberSearchPage = z.infer<typeof SubscriberSearchPage>;

/**
 * Body of `PUT /v1/subscribers/{subscriberId}/credentials`: the document's, except that
 * `providerId` is open (a {@link SubscriberProviderId}): a provider id newer than the document is
 * passed on, and the service is the one to accept or refuse it.
 */
export type UpdateSubscriberCredentialsBody = Omit<RequestBody<"SubscribersV1Controller_updateSubscriberChannel">, "providerId"> & { providerId: SubscriberProviderId };

/** Body of `PATCH /v2/subscribers/{subscriberId}`, as the document has it. */
export type PatchSubscriberBody = RequestBody<"SubscribersController_patchSubscriber">;

/** Body of `POST /v2/subscribers`, as the document has it. */
export type CreateSubscriberBody = RequestBody<"SubscribersController_createSubscriber">;
