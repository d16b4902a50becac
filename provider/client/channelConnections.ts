/**
 * Channel connection operations (v1): a workspace's authorisation (a Slack or Teams workspace and
 * its access token) for one integration, per subscriber or shared by a context, addressed by its
 * identifier. The wire shapes live here, beside the operations that read them
 * (`GetChannelConnectionResponseDto`, `ListChannelConnectionsResponseDto` of spec/openapi.json).
 * The service answers the access token in clear: callers keep it secret.
 */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import type { HttpTransport } from "./http";
import { ListedReads } from "./shared";

/** The workspace of a connection (`WorkspaceDto`). */
export const ChannelWorkspace = z.looseObject({
  id: z.string().describe("The workspace's id at the chat platform (a Slack team id)."),
  name: z.string().optional().describe("The workspace's name."),
});

/** The authorisation of a connection (`AuthDto`): the access token, in clear. */
export const ChannelAuth = z.looseObject({
  accessToken: z.string().describe("The workspace's access token (secret)."),
});

/** A channel connection as the service returns it. */
export const ChannelConnection = z.looseObject({
  identifier: z.string().describe("The connection's identifier, its address in every call."),
  channel: z.string().nullable().optional().describe("The channel of the connection's integration (`chat`)."),
  providerId: z.string().nullable().optional().describe("The provider of the connection's integration (`slack`, `msteams`, ...)."),
  integrationIdentifier: z.string().nullable().optional().describe("The identifier of the connection's integration."),
  subscriberId: z.string().nullable().optional().describe("The subscriber the connection belongs to; null for a connection shared by a context."),
  contextKeys: z.array(z.string()).optional().describe("The connection's contexts, each `type:id`."),
  workspace: ChannelWorkspace.describe("The workspace."),
  auth: ChannelAuth.describe("The workspace's authorisation, the access token in clear (secret)."),
  createdAt: z.string().optional().describe("When the connection was created (ISO 8601)."),
  updatedAt: z.string().optional().describe("When the connection was last changed (ISO 8601)."),
});
export type ChannelConnection = z.infer<typeof ChannelConnection>;

/** A channel connection as getChannelConnections lists it (its `auth` makes the function's result secret). */
export const ChannelConnectionSummary = ChannelConnection.meta({
  id: "ChannelConnectionSummary",
  description: "A channel connection: its identifier, integration, subscriber or contexts, workspace and authorisation (secret).",
});

/** One page of `GET /v1/channel-connections` (cursor pagination, not wrapped in the envelope). */
const ChannelConnectionPage = z.looseObject({ data: z.array(ChannelConnection), next: z.string().nullable() });

/** Query of `GET /v1/channel-connections`: every filter the service takes. */
export interface ListChannelConnectionsQuery {
  subscriberId?: string;
  integrationIdentifier?: string;
  channel?: "in_app" | "email" | "sms" | "chat" | "push";
  providerId?: string;
  /** Connections of exactly this set of contexts (`type:id` each). */
  contextKeys?: readonly string[];
}

/** `/v1/channel-connections` */
export class ChannelConnectionsApi {
  /** The list maps each connection as the read-one route does (dtos/dto.mapper.ts, `auth` decrypted in both), newest first, at most 100 a page. */
  private readonly listed: ListedReads<ChannelConnection>;

  constructor(private readonly http: HttpTransport) {
    this.listed = new ListedReads(() => this.list({}, 100), (x) => x.identifier);
  }

  /** Every connection of the environment matching `query` (`GET /v1/channel-connections`, following the cursor), at most `max`. */
  async list(query: ListChannelConnectionsQuery = {}, max = Number.MAX_SAFE_INTEGER): Promise<ChannelConnection[]> {
    const all: ChannelConnection[] = [];
    let after: string | undefined;
    while (all.length < max) {
      const page = await this.http.request({
        operation: "list channel connections", method: "GET", route: "/v1/channel-connections",
        query: { ...query, providerId: query.providerId, limit: 100, after }, schema: ChannelConnectionPage,
      });
      all.push(...page.data.slice(0, max - all.length));
      if (!page.next || page.data.length === 0) break;
      after = page.next;
    }
    return all;
  }

  /**
   * `POST /v1/channel-connections`: 409 when the identifier is taken, or when a connection of the
   * same integration, subscriber (or none) and exact set of contexts exists (its message names that
   * one's identifier).
   */
  create(body: RequestBody<"ChannelConnectionsController_createChannelConnection">): Promise<ChannelConnection> {
    return this.listed.writing(() => this.http.request({ operation: `create channel connection "${body.identifier ?? "(generated)"}"`, method: "POST", route: "/v1/channel-connections", creates: true, body, schema: ChannelConnection }));
  }

  /** `GET /v1/channel-connections/{identifier}` */
  get(identifier: string): Promise<ChannelConnection> {
    return this.http.request({
      operation: `get channel connection "${identifier}"`, method: "GET", route: "/v1/channel-connections/{identifier}", params: { identifier }, schema: ChannelConnection,
    });
  }

  /** The connection for a resource's read: as {@link get} answers, from a listing that reads of others share ({@link ListedReads}). */
  read(identifier: string): Promise<ChannelConnection> {
    return this.listed.read(identifier, () => this.get(identifier));
  }

  /** `PATCH /v1/channel-connections/{identifier}`: replaces the workspace and the authorisation (both required). */
  update(identifier: string, body: RequestBody<"ChannelConnectionsController_updateChannelConnection">): Promise<ChannelConnection> {
    return this.listed.writing(() => this.http.request({
      operation: `update channel connection "${identifier}"`, method: "PATCH", route: "/v1/channel-connections/{identifier}", params: { identifier }, body,
      schema: ChannelConnection,
    }));
  }

  /** `DELETE /v1/channel-connections/{identifier}` (the endpoints naming it are left as they are). */
  async delete(identifier: string): Promise<void> {
    await this.listed.writing(() => this.http.request({
      operation: `delete channel connection "${identifier}"`, method: "DELETE", route: "/v1/channel-connections/{identifier}", params: { identifier }, schema: undefined,
    }));
  }
}
