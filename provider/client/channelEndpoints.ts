/**
 * Channel endpoint operations (v1): where a subscriber is reached on a chat platform (a Slack
 * channel, a Teams user, a webhook, a phone number, ...), addressed by its identifier. The wire
 * shapes live here, beside the operations that read them (`GetChannelEndpointResponseDto`,
 * `ListChannelEndpointsResponseDto` of spec/openapi.json).
 */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import type { HttpTransport } from "./http";
import { ListedReads } from "./shared";

/** A channel endpoint as the service returns it. */
export const ChannelEndpoint = z.looseObject({
  identifier: z.string().describe("The endpoint's identifier, its address in every call."),
  channel: z.string().nullable().optional().describe("The channel of the endpoint's integration (`chat`, `sms`, ...)."),
  providerId: z.string().nullable().optional().describe("The provider of the endpoint's integration."),
  integrationIdentifier: z.string().nullable().optional().describe("The identifier of the endpoint's integration."),
  connectionIdentifier: z.string().nullable().optional().describe("The identifier of the channel connection the endpoint uses, if any."),
  subscriberId: z.string().nullable().optional().describe("The subscriber the endpoint reaches."),
  contextKeys: z.array(z.string()).optional().describe("The endpoint's contexts, each `type:id`."),
  type: z.string().describe("The endpoint's type (`slack_channel`, `webhook`, `phone`, ...)."),
  endpoint: z.record(z.string(), z.unknown()).describe("The endpoint's data, whose keys its type fixes (`{channelId}` for `slack_channel`)."),
  createdAt: z.string().optional().describe("When the endpoint was created (ISO 8601)."),
  updatedAt: z.string().optional().describe("When the endpoint was last changed (ISO 8601)."),
});
export type ChannelEndpoint = z.infer<typeof ChannelEndpoint>;

/** A channel endpoint as getChannelEndpoints lists it. */
export const ChannelEndpointSummary = ChannelEndpoint.meta({
  id: "ChannelEndpointSummary",
  description: "A channel endpoint: its identifier, subscriber, integration, type and data, and the connection and contexts it belongs to.",
});

/** One page of `GET /v1/channel-endpoints` (cursor pagination, not wrapped in the envelope). */
const ChannelEndpointPage = z.looseObject({ data: z.array(ChannelEndpoint), next: z.string().nullable() });

/** Query of `GET /v1/channel-endpoints`: every filter the service takes. */
export interface ListChannelEndpointsQuery {
  subscriberId?: string;
  integrationIdentifier?: string;
  connectionIdentifier?: string;
  channel?: "in_app" | "email" | "sms" | "chat" | "push";
  providerId?: string;
  /** Endpoints of exactly this set of contexts (`type:id` each). */
  contextKeys?: readonly string[];
}

/** `/v1/channel-endpoints` */
export class ChannelEndpointsApi {
  /** The list maps each endpoint as the read-one route does (dtos/dto.mapper.ts, the endpoint decrypted in both), newest first, at most 100 a page. */
  private readonly listed: ListedReads<ChannelEndpoint>;

  constructor(private readonly http: HttpTransport) {
    this.listed = new ListedReads(() => this.list({}, 100), (x) => x.identifier);
  }

  /** Every endpoint of the environment matching `query` (`GET /v1/channel-endpoints`, following the cursor), at most `max`. */
  async list(query: ListChannelEndpointsQuery = {}, max = Number.MAX_SAFE_INTEGER): Promise<ChannelEndpoint[]> {
    const all: ChannelEndpoint[] = [];
    let after: string | undefined;
    while (all.length < max) {
      const page = await this.http.request({
        operation: "list channel endpoints", method: "GET", route: "/v1/channel-endpoints", query: { ...query, limit: 100, after }, schema: ChannelEndpointPage,
      });
      all.push(...page.data.slice(0, max - all.length));
      if (!page.next || page.data.length === 0) break;
      after = page.next;
    }
    return all;
  }

  /** `POST /v1/channel-endpoints`: 409 when the identifier is taken (the only thing the service keeps unique). */
  create(body: RequestBody<"ChannelEndpointsController_createChannelEndpoint">): Promise<ChannelEndpoint> {
    return this.listed.writing(() => this.http.request({ operation: `create channel endpoint "${body.identifier ?? "(generated)"}"`, method: "POST", route: "/v1/channel-endpoints", creates: true, body, schema: ChannelEndpoint }));
  }

  /** `GET /v1/channel-endpoints/{identifier}` */
  get(identifier: string): Promise<ChannelEndpoint> {
    return this.http.request({
      operation: `get channel endpoint "${identifier}"`, method: "GET", route: "/v1/channel-endpoints/{identifier}", params: { identifier }, schema: ChannelEndpoint,
    });
  }

  /** The endpoint for a resource's read: as {@link get} answers, from a listing that reads of others share ({@link ListedReads}). */
  read(identifier: string): Promise<ChannelEndpoint> {
    return this.listed.read(identifier, () => this.get(identifier));
  }

  /** `PATCH /v1/channel-endpoints/{identifier}`: the endpoint's data, which must fit its type (400 otherwise). */
  update(identifier: string, body: RequestBody<"ChannelEndpointsController_updateChannelEndpoint">): Promise<ChannelEndpoint> {
    return this.listed.writing(() => this.http.request({
      operation: `update channel endpoint "${identifier}"`, method: "PATCH", route: "/v1/channel-endpoints/{identifier}", params: { identifier }, body,
      schema: ChannelEndpoint,
    }));
  }

  /** `DELETE /v1/channel-endpoints/{identifier}` */
  async delete(identifier: string): Promise<void> {
    await this.listed.writing(() => this.http.request({
      operation: `delete channel endpoint "${identifier}"`, method: "DELETE", route: "/v1/channel-endpoints/{identifier}", params: { identifier }, schema: undefined,
    }));
  }
}
