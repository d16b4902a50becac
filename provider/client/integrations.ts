/** Integration operations: list, create, update, delete, set-primary. */
import { z } from "zod";
import { Integration, type CreateIntegrationBody, type UpdateIntegrationBody } from "../schemas";
import type { HttpTransport } from "./http";
import { SharedListing } from "./shared";

const IntegrationList = z.array(Integration);

/**
 * A listing shared by reads: the live integrations by `_id`, and by environment and identifier
 * (in each, the first in the listing's order, as a search of it would find).
 */
interface Listing {
  live: Map<string, Integration>;
  byIdentifier: Map<string, Integration>;
}

const identifierKey = (environmentId: string, identifier: string) => `${environmentId}\u0000${identifier}`;

/** Indexes a listing once, so each of N reads finds its integration without going through all of them. */
function indexListing(all: Integration[]): Listing {
  const live = new Map<string, Integration>();
  const byIdentifier = new Map<string, Integration>();
  for (const i of all) {
    if (i.deleted) continue;
    if (!live.has(i._id)) live.set(i._id, i);
    const k = identifierKey(i._environmentId, i.identifier);
    if (!byIdentifier.has(k)) byIdentifier.set(k, i);
  }
  return { live, byIdentifier };
}

/** `/v1/integrations` */
export class IntegrationsApi {
  private readonly shared: SharedListing<Listing>;

  constructor(private readonly http: HttpTransport) {
    this.shared = new SharedListing(() => this.list().then(indexListing));
  }

  /** `GET /v1/integrations`: every integration of the organisation, all environments. */
  list(): Promise<Integration[]> {
    return this.http.request({ operation: "list integrations", method: "GET", route: "/v1/integrations", schema: IntegrationList });
  }

  /**
   * One integration by `_id`, or undefined when it is gone or soft-deleted. The service has no
   * read-one route, so reads share one listing until this client writes (or
   * {@link SharedListing.REUSE_MS} passes): a refresh of N integrations costs one list, not N, and the
   * listing is indexed once, so each read is a lookup rather than a pass over all N.
   */
  async get(integrationId: string): Promise<Integration | undefined> {
    return (await this.shared.get()).live.get(integrationId);
  }

  /**
   * One live integration by `identifier` within an environment, from the same shared listing as
   * {@link get} (for reads, e.g. which integration a subscriber's credentials belong to). The
   * listing may predate an integration another client made since: one not in it is looked for in
   * a new listing, which then serves the reads that follow.
   */
  async getByIdentifier(identifier: string, environmentId: string): Promise<Integration | undefined> {
    const match = (listing: Listing) => listing.byIdentifier.get(identifierKey(environmentId, identifier));
    const shared = match(await this.shared.get());
    if (shared) return shared;
    this.shared.invalidate();
    return match(await this.shared.get());
  }

  /** One integration by `identifier` within an environment (when given), or undefined. */
  async findByIdentifier(identifier: string, environmentId?: string): Promise<Integration | undefined> {
    const all = await this.list();
    return all.find((i) => i.identifier === identifier && !i.deleted && (!environmentId || i._environmentId === environmentId));
  }

  /** `POST /v1/integrations` */
  create(body: CreateIntegrationBody): Promise<Integration> {
    return this.shared.writing(() => this.http.request({ operation: `create integration "${body.identifier ?? body.providerId}"`, method: "POST", route: "/v1/integrations", creates: true, body, schema: Integration }));
  }

  /** `PUT /v1/integrations/{integrationId}` */
  update(integrationId: string, body: UpdateIntegrationBody): Promise<Integration> {
    return this.shared.writing(() => this.http.request({ operation: `update integration ${integrationId}`, method: "PUT", route: "/v1/integrations/{integrationId}", params: { integrationId }, body, schema: Integration }));
  }

  /** `DELETE /v1/integrations/{integrationId}`: soft delete; answers the remaining integrations. */
  delete(integrationId: string): Promise<Integration[]> {
    return this.shared.writing(() => this.http.request({ operation: `delete integration ${integrationId}`, method: "DELETE", route: "/v1/integrations/{integrationId}", params: { integrationId }, schema: IntegrationList }));
  }

  /** `POST /v1/integrations/{integrationId}/set-primary` */
  setPrimary(integrationId: string): Promise<Integration> {
    return this.shared.writing(() => this.http.request({ operation: `set primary integration ${integrationId}`, method: "POST", route: "/v1/integrations/{integrationId}/set-primary", params: { integrationId }, schema: Integration }));
  }
}
