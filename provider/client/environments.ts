/** Environment operations: list, create, update, delete. */
import { z } from "zod";
import { Environment, type CreateEnvironmentBody, type UpdateEnvironmentBody } from "../schemas";
import type { HttpTransport } from "./http";
import { SharedListing } from "./shared";

const EnvironmentList = z.array(Environment);

/** The route of the API key's own environment, which the connection check reads (connectionCheck.ts). */
export const KEY_ENVIRONMENT_ROUTE = "/v1/environments/me";

/** `/v1/environments`: the organisation's environments (any of its keys reaches all of them). */
export class EnvironmentsApi {
  private readonly shared: SharedListing<Environment[]>;

  constructor(private readonly http: HttpTransport) {
    this.shared = new SharedListing(() => this.list());
  }

  /** `GET /v1/environments`: every environment, each with its API keys in clear where the caller may read them. */
  list(): Promise<Environment[]> {
    return this.http.request({ operation: "list environments", method: "GET", route: "/v1/environments", schema: EnvironmentList });
  }

  /**
   * One environment by `_id`, or undefined. The service has no read-one route, so reads share one
   * listing until this client writes: a refresh of N environments lists once.
   */
  async get(environmentId: string): Promise<Environment | undefined> {
    return (await this.shared.get()).find((e) => e._id === environmentId);
  }

  /**
   * `GET /v1/environments/me`: the environment of the API key, without its keys (environments-v1.controller.ts,
   * `@Get('/me') @ExternalApiAccessible()`). One small authenticated request: what a connection check sends.
   */
  me(): Promise<Environment> {
    return this.http.request({ operation: "read the API key's environment", method: "GET", route: KEY_ENVIRONMENT_ROUTE, schema: Environment });
  }

  /** `POST /v1/environments`: answers the keys encrypted (`nvsk.`); read them from {@link list}. */
  create(body: CreateEnvironmentBody): Promise<Environment> {
    return this.shared.writing(() => this.http.request({ operation: `create environment "${body.name}"`, method: "POST", route: "/v1/environments", creates: true, body, schema: Environment }));
  }

  /**
   * `PUT /v1/environments/{environmentId}`: writes the fields sent. Production answers update
   * counters (`{matched, modified}`), not the environment, so the answer is not read.
   */
  async update(environmentId: string, body: UpdateEnvironmentBody): Promise<void> {
    await this.shared.writing(() => this.http.request({ operation: `update environment ${environmentId}`, method: "PUT", route: "/v1/environments/{environmentId}", params: { environmentId }, body, schema: z.unknown() }));
  }

  /** `DELETE /v1/environments/{environmentId}` */
  async delete(environmentId: string): Promise<void> {
    await this.shared.writing(() => this.http.request({ operation: `delete environment ${environmentId}`, method: "DELETE", route: "/v1/environments/{environmentId}", params: { environmentId }, schema: undefined }));
  }
}
