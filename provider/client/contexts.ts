/** Context operations (v2): create, list, get, update (the data, replaced whole), delete. */
import type { z } from "zod";
import { Context, ContextListPage, type OrderDirection } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import type { HttpTransport } from "./http";
import { ListedReads } from "./shared";

/** Query of `GET /v2/contexts`. */
export interface ListContextsQuery {
  limit?: number;
  after?: string;
  orderDirection?: z.infer<typeof OrderDirection>;
  /** Only contexts with exactly this id. */
  id?: string;
  /** Contexts whose `type:id` key contains this (case-insensitive). */
  search?: string;
}

/** `/v2/contexts` */
export class ContextsApi {
  /** The list maps each context as the read-one route does (dto.mapper.ts), newest first, at most 100 a page. */
  private readonly listed: ListedReads<Context>;

  constructor(private readonly http: HttpTransport) {
    this.listed = new ListedReads(async () => (await this.list({ limit: 100 })).data, (c) => `${c.type}:${c.id}`);
  }

  /** `GET /v2/contexts` (cursor pagination). */
  list(query: ListContextsQuery = {}): Promise<ContextListPage> {
    return this.http.request({ operation: "list contexts", method: "GET", route: "/v2/contexts", query: { ...query }, schema: ContextListPage });
  }

  /** `POST /v2/contexts`: creates the context; 409 when one of that type and id exists (no upsert). */
  create(body: RequestBody<"ContextsController_createContext">): Promise<Context> {
    return this.listed.writing(() => this.http.request({ operation: `create context "${body.type}:${body.id}"`, method: "POST", route: "/v2/contexts", creates: true, body, schema: Context }));
  }

  /** `GET /v2/contexts/{type}/{id}` */
  get(type: string, id: string): Promise<Context> {
    return this.http.request({ operation: `get context "${type}:${id}"`, method: "GET", route: "/v2/contexts/{type}/{id}", params: { type, id }, schema: Context });
  }

  /** The context for a resource's read: as {@link get} answers, from a listing that reads of other contexts share ({@link ListedReads}). */
  read(type: string, id: string): Promise<Context> {
    return this.listed.read(`${type}:${id}`, () => this.get(type, id));
  }

  /** `PATCH /v2/contexts/{type}/{id}`: replaces the data whole. */
  update(type: string, id: string, body: RequestBody<"ContextsController_updateContext">): Promise<Context> {
    return this.listed.writing(() => this.http.request({ operation: `update context "${type}:${id}"`, method: "PATCH", route: "/v2/contexts/{type}/{id}", params: { type, id }, body, schema: Context }));
  }

  /** `DELETE /v2/contexts/{type}/{id}` (404 when it does not exist). */
  async delete(type: string, id: string): Promise<void> {
    await this.listed.writing(() => this.http.request({ operation: `delete context "${type}:${id}"`, method: "DELETE", route: "/v2/contexts/{type}/{id}", params: { type, id }, schema: undefined }));
  }
}
