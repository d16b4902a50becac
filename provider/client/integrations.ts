/** Integration operations: list, create, update, delete, set-primary. */
import { z } from "zod";
import { CreateIntegrationBody, Integration, UpdateIntegrationBody } from "../schemas";
import type { HttpTransport } from "./http";

const IntegrationList = z.array(Integration);

/** `/v1/integrations` */
export class IntegrationsApi {
  private listCache?: { at: number; promise: Promise<Integration[]> };

  /**
   * How long a listing may serve reads of single integrations, in ms. A provider process lives
   * for one operation, and every write it makes drops the listing, so this only bounds how long
   * a refresh may go on reading one snapshot: long enough that a refresh of any size lists once
   * (its requests and bytes grow linearly in N, not with N times the number of listings).
   */
  static readonly LIST_REUSE_MS = 60_000;

  constructor(private readonly http: HttpTransport) {}

  /** `GET /v1/integrations`: every integration of the organisation, all environments. */
  list(): Promise<Integration[]> {
    return this.http.request({ operation: "list integrations", method: "GET", route: "/v1/integrations", schema: IntegrationList });
  }

  /**
   * One integration by `_id`, or undefined when it is gone or soft-deleted. The service has no
   * read-one route, so reads share one listing until this client writes (or
   * {@link LIST_REUSE_MS} passes): a refresh of N integrations costs one list, not N.
   */
  async get(integrationId: string): Promise<Integration | undefined> {
    return (await this.sharedListing()).find((i) => i._id === integrationId && !i.deleted);
  }

  /**
   * One live integration by `identifier` within an environment, from the same shared listing as
   * {@link get} (for reads, e.g. which integration a subscriber's credentials belong to). The
   * listing may predate an integration another client made since: one not in it is looked for in
   * a new listing, which then serves the reads that follow.
   */
  async getByIdentifier(identifier: string, environmentId: string): Promise<Integration | undefined> {
    const match = (all: Integration[]) => all.find((i) => i.identifier === identifier && i._environmentId === environmentId && !i.deleted);
    const shared = match(await this.sharedListing());
    if (shared) return shared;
    this.invalidate();
    return match(await this.sharedListing());
  }

  private sharedListing(): Promise<Integration[]> {
    const now = Date.now();
    if (!this.listCache || now - this.listCache.at > IntegrationsApi.LIST_REUSE_MS) {
      const promise = this.list();
      this.listCache = { at: now, promise };
      promise.catch(() => { if (this.listCache?.promise === promise) this.listCache = undefined; });
    }
    return this.listCache.promise;
  }

  /** One integration by `identifier` within an environment (when given), or undefined. */
  async findByIdentifier(identifier: string, environmentId?: string): Promise<Integration | undefined> {
    const all = await this.list();
    return all.find((i) => i.identifier === identifier && !i.deleted && (!environmentId || i._environmentId === environmentId));
  }

  /** `POST /v1/integrations` */
  create(body: CreateIntegrationBody): Promise<Integration> {
    this.invalidate();
    return this.http.request({ operation: `create integration "${body.identifier ?? body.providerId}"`, method: "POST", route: "/v1/integrations", body, schema: Integration });
  }

  /** `PUT /v1/integrations/{integrationId}` */
  update(integrationId: string, body: UpdateIntegrationBody): Promise<Integration> {
    this.invalidate();
    return this.http.request({ operation: `update integration ${integrationId}`, method: "PUT", route: "/v1/integrations/{integrationId}", params: { integrationId }, body, schema: Integration });
  }

  /** `DELETE /v1/integrations/{integrationId}`: soft delete; answers the remaining integrations. */
  delete(integrationId: string): Promise<Integration[]> {
    this.invalidate();
    return this.http.request({ operation: `delete integration ${integrationId}`, method: "DELETE", route: "/v1/integrations/{integrationId}", params: { integrationId }, schema: IntegrationList });
  }

  /** `POST /v1/integrations/{integrationId}/set-primary` */
  setPrimary(integrationId: string): Promise<Integration> {
    this.invalidate();
    return this.http.request({ operation: `set primary integration ${integrationId}`, method: "POST", route: "/v1/integrations/{integrationId}/set-primary", params: { integrationId }, schema: Integration });
  }

  private invalidate(): void {
    this.listCache = undefined;
  }
}
