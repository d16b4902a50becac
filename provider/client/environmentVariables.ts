/** Environment variable operations: list, get, create, update, delete. */
import { z } from "zod";
import { EnvironmentVariable, type CreateEnvironmentVariableBody, type UpdateEnvironmentVariableBody } from "../schemas";
import type { HttpTransport } from "./http";

/** `/v1/environment-variables`: variables of the organisation, each with one value per environment. */
export class EnvironmentVariablesApi {
  constructor(private readonly http: HttpTransport) {}

  /** `GET /v1/environment-variables`: every variable (no pagination), newest first; `search` filters keys. */
  list(search?: string): Promise<EnvironmentVariable[]> {
    return this.http.request({ operation: "list environment variables", method: "GET", route: "/v1/environment-variables", query: { search }, schema: z.array(EnvironmentVariable) });
  }

  /** `GET /v1/environment-variables/{variableKey}` */
  get(variableKey: string): Promise<EnvironmentVariable> {
    return this.http.request({ operation: `get environment variable "${variableKey}"`, method: "GET", route: "/v1/environment-variables/{variableKey}", params: { variableKey }, schema: EnvironmentVariable });
  }

  /** `POST /v1/environment-variables` */
  create(body: CreateEnvironmentVariableBody): Promise<EnvironmentVariable> {
    return this.http.request({ operation: `create environment variable "${body.key}"`, method: "POST", route: "/v1/environment-variables", body, schema: EnvironmentVariable });
  }

  /** `PATCH /v1/environment-variables/{variableKey}`: values merge by environment (entries not sent keep theirs). */
  update(variableKey: string, body: UpdateEnvironmentVariableBody): Promise<EnvironmentVariable> {
    return this.http.request({ operation: `update environment variable "${variableKey}"`, method: "PATCH", route: "/v1/environment-variables/{variableKey}", params: { variableKey }, body, schema: EnvironmentVariable });
  }

  /** `DELETE /v1/environment-variables/{variableKey}` */
  async delete(variableKey: string): Promise<void> {
    await this.http.request({ operation: `delete environment variable "${variableKey}"`, method: "DELETE", route: "/v1/environment-variables/{variableKey}", params: { variableKey }, schema: undefined });
  }
}
