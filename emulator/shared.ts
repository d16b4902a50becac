/**
 * Pieces more than one route file, or the control plane, use: kept here so that route files never
 * import each other (a layout's origin and a workflow step's layout lookup used to make
 * routes/layouts.ts and routes/workflows.ts a circle) and control.ts imports no route file.
 */
import { notFound } from "./errors";
import type { AgentRecord, JsonObject, LayoutRecord, SubscriberRecord } from "./records";
import { ofTenant, type Tenant } from "./store";
import type { RequestContext } from "./types";
import { objectId } from "./util";

/** The origin this emulator writes (api.md's spelling; production writes `<service>-cloud`). */
export const EMULATOR_ORIGIN = "platform-cloud";

/** The agent of an identifier in the caller's environment (routes/agents.ts serves them; a domain's agent routes name them). */
export function agentByIdentifier(c: RequestContext, identifier: string): AgentRecord | undefined {
  return ofTenant(c.store.data.agents, c.tenant).find((a) => a.identifier === identifier);
}

/** The live layouts of the caller's environment. */
export function liveLayouts(c: RequestContext): LayoutRecord[] {
  return ofTenant(c.store.data.layouts, c.tenant).filter((l) => !l.deleted);
}

/**
 * A workflow's email step `layoutId`, resolved by identifier or `_id` (not slug) and normalised
 * to the identifier (libs/application-generic/src/usecases/upsert-workflow/upsert-workflow.usecase.ts).
 */
export function resolveStepLayoutId(c: RequestContext, id: string): string {
  const l = liveLayouts(c).find((x) => x.identifier === id || x._id === id);
  if (!l) throw notFound(`Layout not found for id ${id} in the environment ${c.tenant.environmentId}`);
  return l.identifier;
}

/** A new subscriber record from what a caller (or a trigger's `to`, or a seed) gave. */
export function newSubscriber(input: JsonObject, t: Tenant, createdAt: string): SubscriberRecord {
  return {
    _id: objectId(), firstName: null, lastName: null, email: null, phone: null,
    avatar: null, locale: null, timezone: null, data: null, channels: [], topics: [], isOnline: false, lastOnlineAt: null,
    __v: 0, ...input, subscriberId: String(input.subscriberId), _organizationId: t.organizationId, _environmentId: t.environmentId,
    deleted: false, createdAt, updatedAt: createdAt,
  };
}
