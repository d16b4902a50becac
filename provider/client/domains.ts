/** Inbound-email domain operations (v1): the domain, its verification, and its routes. */
import { Domain, DomainListPage, DomainRoute, DomainRouteListPage } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import type { HttpTransport } from "./http";

/** What a route sends: where an address goes. */
export interface DomainRouteBody {
  type: "webhook" | "agent";
  agentId?: string;
  data?: Record<string, string>;
}

/** `/v1/domains` */
export class DomainsApi {
  constructor(private readonly http: HttpTransport) {}

  /** `GET /v1/domains` (cursor pagination; `name` filters by a part of the name). */
  list(query: { limit?: number; after?: string; name?: string } = {}): Promise<DomainListPage> {
    return this.http.request({ operation: "list domains", method: "GET", route: "/v1/domains", query: { ...query }, schema: DomainListPage });
  }

  /** `POST /v1/domains`: 409 when the name is taken anywhere on the service. */
  create(body: RequestBody<"DomainsController_createDomain">): Promise<Domain> {
    return this.http.request({ operation: `create domain "${body.name}"`, method: "POST", route: "/v1/domains", creates: true, body, schema: Domain });
  }

  /** `GET /v1/domains/{domain}` */
  get(domain: string): Promise<Domain> {
    return this.http.request({ operation: `get domain "${domain}"`, method: "GET", route: "/v1/domains/{domain}", params: { domain }, schema: Domain });
  }

  /** `PATCH /v1/domains/{domain}`: replaces the data. */
  update(domain: string, body: RequestBody<"DomainsController_updateDomain">): Promise<Domain> {
    return this.http.request({ operation: `update domain "${domain}"`, method: "PATCH", route: "/v1/domains/{domain}", params: { domain }, body, schema: Domain });
  }

  /** `DELETE /v1/domains/{domain}`: the domain and its routes. */
  async delete(domain: string): Promise<void> {
    await this.http.request({ operation: `delete domain "${domain}"`, method: "DELETE", route: "/v1/domains/{domain}", params: { domain }, schema: undefined });
  }

  /** `POST /v1/domains/{domain}/verify`: looks the MX record up and updates the status. */
  verify(domain: string): Promise<Domain> {
    return this.http.request({ operation: `verify domain "${domain}"`, method: "POST", route: "/v1/domains/{domain}/verify", params: { domain }, schema: Domain });
  }

  /** `GET /v1/domains/{domain}/routes` (cursor pagination). */
  listRoutes(domain: string, query: { limit?: number; after?: string } = {}): Promise<DomainRouteListPage> {
    return this.http.request({ operation: `list routes of domain "${domain}"`, method: "GET", route: "/v1/domains/{domain}/routes", params: { domain }, query: { ...query }, schema: DomainRouteListPage });
  }

  /** `POST /v1/domains/{domain}/routes` */
  createRoute(domain: string, address: string, body: DomainRouteBody): Promise<DomainRoute> {
    return this.http.request({ operation: `route "${address}@${domain}"`, method: "POST", route: "/v1/domains/{domain}/routes", params: { domain }, body: { address, ...body }, schema: DomainRoute });
  }

  /** `PATCH /v1/domains/{domain}/routes/{address}` */
  updateRoute(domain: string, address: string, body: DomainRouteBody): Promise<DomainRoute> {
    return this.http.request({ operation: `update route "${address}@${domain}"`, method: "PATCH", route: "/v1/domains/{domain}/routes/{address}", params: { domain, address }, body: { ...body }, schema: DomainRoute });
  }

  /** `DELETE /v1/domains/{domain}/routes/{address}` */
  async deleteRoute(domain: string, address: string): Promise<void> {
    await this.http.request({ operation: `delete route "${address}@${domain}"`, method: "DELETE", route: "/v1/domains/{domain}/routes/{address}", params: { domain, address }, schema: undefined });
  }
}
