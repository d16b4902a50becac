/** Environment operations: list, create, update, delete. */
import { z } from "zod";
import { Environment, type CreateEnvironmentBody, type UpdateEnvironmentBody } from "../schemas";
import type { HttpTransport } from "./http";

const EnvironmentList = z.array(Environment);

/** `/v1/environments`: the organisation's environments (any of its keys reaches all of them). */
export class EnvironmentsApi {
  constructor(private readonly http: HttpTransport) {}

  /** `GET /v1/environments`: every environment, each with its API keys in clear where the caller may read them. */
  list(): Promise<Environment[]> {
    return this.http.request({ operation: "list environments", method: "GET", route: "/v1/environments", schema: EnvironmentList });
  }

  /** One environment by `_id` (from the listing; the service has no read-one route), or undefined. */
  async get(environmentId: string): Promise<Environment | undefined> {
    return (await this.list()).find((e) => e._id === environmentId);
  }

  /** `POST /v1/environments`: answers the keys encrypted (`nvsk.`); read them from {@link list}. */
  create(body: CreateEnvironmentBody): Promise<Environment> {
    return this.http.request({ operation: `create environment "${body.name}"`, method: "POST", route: "/v1/environments", body, schema: Environment });
  }

  /**
   * `PUT /v1/environments/{environmentId}`: writes the fields sent. Production answers update
   * counters (`{matched, modified}`), not the environment, so the answer is not read.
   */
  async update(environmentId: string, body: UpdateEnvironmentBody): Promise<void> {
    await this.http.request({ operation: `update environment ${environmentId}`, method: "PUT", route: "/v1/environments/{environmentId}", params: { environmentId }, body, schema: z.unknown() });
  }

  /** `DELETE /v1/environments/{environmentId}` */
  async delete(environmentId: string): Promise<void> {
    await this.http.request({ operation: `delete environment ${environmentId}`, method: "DELETE", route: "/v1/environments/{environmentId}", params: { environmentId }, schema: undefined });
  }
}
