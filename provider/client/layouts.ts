/** Layout operations (v2): list, get, create, update, delete. */
import type { z } from "zod";
import { Layout, LayoutListPage, type CreateLayoutBody, type UpdateLayoutBody, type OrderDirection } from "../schemas";
import type { HttpTransport } from "./http";

/** Query of `GET /v2/layouts`. */
export interface ListLayoutsQuery {
  limit?: number;
  offset?: number;
  orderDirection?: z.infer<typeof OrderDirection>;
  orderBy?: "createdAt" | "updatedAt" | "name";
  /** Layouts whose name or layoutId contains this (case-insensitive). */
  query?: string;
}

/** `/v2/layouts` */
export class LayoutsApi {
  constructor(private readonly http: HttpTransport) {}

  /** `GET /v2/layouts` (offset pagination). */
  list(query: ListLayoutsQuery = {}): Promise<LayoutListPage> {
    return this.http.request({ operation: "list layouts", method: "GET", route: "/v2/layouts", query: { ...query }, schema: LayoutListPage });
  }

  /** `GET /v2/layouts/{layoutId}`: by layoutId, database id or slug. */
  get(layoutId: string): Promise<Layout> {
    return this.http.request({ operation: `get layout "${layoutId}"`, method: "GET", route: "/v2/layouts/{layoutId}", params: { layoutId }, schema: Layout });
  }

  /** `POST /v2/layouts`: the service ignores control values here and seeds its own body. */
  create(body: CreateLayoutBody): Promise<Layout> {
    return this.http.request({ operation: `create layout "${body.layoutId}"`, method: "POST", route: "/v2/layouts", creates: true, body, schema: Layout });
  }

  /** `PUT /v2/layouts/{layoutId}`: not an upsert (an unknown layout is a 404). */
  update(layoutId: string, body: UpdateLayoutBody): Promise<Layout> {
    return this.http.request({ operation: `update layout "${layoutId}"`, method: "PUT", route: "/v2/layouts/{layoutId}", params: { layoutId }, body, schema: Layout });
  }

  /** `DELETE /v2/layouts/{layoutId}`: 409 for the environment's default layout. */
  async delete(layoutId: string): Promise<void> {
    await this.http.request({ operation: `delete layout "${layoutId}"`, method: "DELETE", route: "/v2/layouts/{layoutId}", params: { layoutId }, schema: undefined });
  }
}
