/**
 * Agent operations (v1): the agent, addressed by its identifier, and its links to integrations.
 * The wire shapes live here, beside the operations that read them (`AgentResponseDto`,
 * `ListAgentsResponseDto`, `AgentIntegrationResponseDto` of spec/openapi.json).
 */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import type { HttpTransport } from "./http";

/** An integration linked to an agent, as the agent's answer summarises it (`AgentIntegrationSummaryDto`). */
export const AgentIntegration = z.looseObject({
  integrationId: z.string().describe("The integration's database id."),
  identifier: z.string().describe("The integration's identifier."),
  providerId: z.string().describe("The integration's provider."),
  name: z.string().optional().describe("The integration's name."),
  channel: z.string().optional().describe("The integration's channel."),
  active: z.boolean().optional().describe("Whether the integration is active."),
});

/** How an agent behaves in conversations (`AgentBehaviorDto`). */
export const AgentBehavior = z.looseObject({
  acknowledgeOnReceived: z.boolean().optional(),
  reactionOnResolved: z.string().nullable().optional(),
  subscriberAccess: z.string().optional(),
});

/** An agent as the service returns it. */
export const Agent = z.looseObject({
  _id: z.string().describe("The agent's database id (what a domain route of type `agent` reads back)."),
  identifier: z.string().describe("The agent's identifier, its address in every call."),
  name: z.string().describe("The agent's name."),
  description: z.string().nullable().optional().describe("The agent's description."),
  active: z.boolean().optional().describe("Whether the agent answers."),
  behavior: AgentBehavior.nullable().optional().describe("How the agent behaves in conversations."),
  bridgeUrl: z.string().nullable().optional().describe("The production bridge URL."),
  runtime: z.string().optional().describe("`self-hosted` (a bridge) or `managed`."),
  visibility: z.string().optional().describe("The agent's discovery scope (`public` today)."),
  managedRuntime: z.record(z.string(), z.unknown()).nullable().optional().describe("The managed runtime, when `runtime` is `managed`."),
  integrations: z.array(AgentIntegration).optional().describe("The integrations linked to the agent."),
  exceedsPlanLimit: z.boolean().optional().describe("Whether the agent is beyond the plan's agent limit (stored, but it does not answer)."),
  createdAt: z.string().optional().describe("When the agent was created (ISO 8601)."),
  updatedAt: z.string().optional().describe("When the agent was last changed (ISO 8601)."),
});
export type Agent = z.infer<typeof Agent>;

/** An agent as getAgents lists it. */
export const AgentSummary = Agent.meta({ id: "AgentSummary", description: "An agent: its identifier, name, behaviour, runtime and linked integrations." });

/** One page of `GET /v1/agents` (cursor pagination, not wrapped in the envelope). */
const AgentListPage = z.looseObject({ data: z.array(Agent), next: z.string().nullable(), previous: z.string().nullable().optional() });

/** A link of an agent to an integration (`AgentIntegrationResponseDto`). */
export const AgentLink = z.looseObject({
  _id: z.string(),
  integration: z.looseObject({ identifier: z.string().optional() }).optional(),
});
export type AgentLink = z.infer<typeof AgentLink>;
const AgentLinkPage = z.looseObject({ data: z.array(AgentLink), next: z.string().nullable() });

/** `/v1/agents` */
export class AgentsApi {
  constructor(private readonly http: HttpTransport) {}

  /** Every agent of the environment (`GET /v1/agents`, following the cursor), or those of one identifier, at most `max`. */
  async list(query: { identifier?: string } = {}, max = Number.MAX_SAFE_INTEGER): Promise<Agent[]> {
    const all: Agent[] = [];
    let after: string | undefined;
    while (all.length < max) {
      const page = await this.http.request({ operation: "list agents", method: "GET", route: "/v1/agents", query: { ...query, limit: 100, after }, schema: AgentListPage });
      all.push(...page.data.slice(0, max - all.length));
      if (!page.next || page.data.length === 0) break;
      after = page.next;
    }
    return all;
  }

  /** `POST /v1/agents`: 409 for an identifier the environment holds (3.15); a newer service stores a suffixed identifier instead. */
  create(body: RequestBody<"AgentsController_createAgent">): Promise<Agent> {
    return this.http.request({ operation: `create agent "${body.identifier}"`, method: "POST", route: "/v1/agents", creates: true, body, schema: Agent });
  }

  /** `GET /v1/agents/{identifier}` */
  get(identifier: string): Promise<Agent> {
    return this.http.request({ operation: `get agent "${identifier}"`, method: "GET", route: "/v1/agents/{identifier}", params: { identifier }, schema: Agent });
  }

  /** `PATCH /v1/agents/{identifier}`: the fields given (an empty body is a 400). */
  update(identifier: string, body: RequestBody<"AgentsController_updateAgent">): Promise<Agent> {
    return this.http.request({ operation: `update agent "${identifier}"`, method: "PATCH", route: "/v1/agents/{identifier}", params: { identifier }, body, schema: Agent });
  }

  /**
   * `DELETE /v1/agents/{identifier}`: the agent and its links. `deleteFromProvider` (required by
   * the OpenAPI document) false: a managed agent's counterpart at its provider is left alone, as it
   * may have been taken over rather than made here.
   */
  async delete(identifier: string): Promise<void> {
    await this.http.request({
      operation: `delete agent "${identifier}"`, method: "DELETE", route: "/v1/agents/{identifier}", params: { identifier },
      query: { deleteFromProvider: false }, schema: undefined,
    });
  }

  /** `POST /v1/agents/{identifier}/integrations`: links an integration by its identifier (403 in a production-type environment). */
  link(identifier: string, integrationIdentifier: string): Promise<AgentLink> {
    return this.http.request({
      operation: `link integration "${integrationIdentifier}" to agent "${identifier}"`, method: "POST", route: "/v1/agents/{identifier}/integrations",
      params: { identifier }, body: { integrationIdentifier }, schema: AgentLink,
    });
  }

  /** `GET /v1/agents/{identifier}/integrations`: the agent's links, with their ids (the agent's own answer gives none). */
  async links(identifier: string): Promise<AgentLink[]> {
    const all: AgentLink[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.http.request({
        operation: `list the integrations of agent "${identifier}"`, method: "GET", route: "/v1/agents/{identifier}/integrations",
        params: { identifier }, query: { limit: 100, after }, schema: AgentLinkPage,
      });
      all.push(...page.data);
      if (!page.next || page.data.length === 0) return all;
      after = page.next;
    }
  }

  /** `DELETE /v1/agents/{identifier}/integrations/{agentIntegrationId}` */
  async unlink(identifier: string, agentIntegrationId: string): Promise<void> {
    await this.http.request({
      operation: `unlink an integration from agent "${identifier}"`, method: "DELETE", route: "/v1/agents/{identifier}/integrations/{agentIntegrationId}",
      params: { identifier, agentIntegrationId }, schema: undefined,
    });
  }
}
