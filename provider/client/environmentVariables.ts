/** Environment variable operations: list, get, create, update, delete. */
import { z } from "zod";
import { EnvironmentVariable, type CreateEnvironmentVariableBody, type UpdateEnvironmentVariableBody } from "../schemas";
import type { HttpTransport } from "./http";
import { ListedReads } from "./shared";

/** `/v1/environment-variables`: variables of the organisation, each with one value per environment. */
export class EnvironmentVariablesApi {
  /** The list is every variable, newest first, each as the read-one route answers it (get-environment-variables.usecase.ts). */
  private readonly listed: ListedReads<EnvironmentVariable>;

  constructor(private readonly http: HttpTransport) {
    this.listed = new ListedReads(() => this.list(), (v) => v.key);
  }

  /** `GET /v1/environment-variables`: every variable (no pagination), newest first; `search` filters keys. */
  list(search?: string): Promise<EnvironmentVariable[]> {
    return this.http.request({ operation: "list environment variables", method: "GET", route: "/v1/environment-variables", query: { search }, schema: z.array(EnvironmentVariable) });
  }

  /** `GET /v1/environment-variables/{variableKey}` */
  get(variableKey: string): Promise<EnvironmentVariable> {
    return this.http.request({ operation: `get environment variable "${variableKey}"`, method: "GET", route: "/v1/environment-variables/{variableKey}", params: { variableKey }, schema: EnvironmentVariable });
  }

  /** The variable for a resource's read: as {@link get} answers, from the listing that reads of other variables share ({@link ListedReads}). */
  read(variableKey: string): Promise<EnvironmentVariable> {
    return this.listed.read(variableKey, () => this.get(variableKey));
  }

  /** `POST /v1/environment-variables` */
  create(body: CreateEnvironmentVariableBody): Promise<EnvironmentVariable> {
    return this.listed.writing(() => this.http.request({ operation: `create environment variable "${body.key}"`, method: "POST", route: "/v1/environment-variables", creates: true, body, schema: EnvironmentVariable }));
  }

  /** `PATCH /v1/environment-variables/{variableKey}`: values merge by environment (entries not sent keep theirs). */
  update(variableKey: string, body: UpdateEnvironmentVariableBody): Promise<EnvironmentVariable> {
    return this.listed.writing(() => this.http.request({ operation: `update environment variable "${variableKey}"`, method: "PATCH", route: "/v1/environment-variables/{variableKey}", params: { variableKey }, body, schema: EnvironmentVariable }));
  }

  /** `DELETE /v1/environment-variables/{variableKey}` */
  async delete(variableKey: string): Promise<void> {
    await this.listed.writing(() => this.http.request({ operation: `delete environment variable "${variableKey}"`, method: "DELETE", route: "/v1/environment-variables/{variableKey}", params: { variableKey }, schema: undefined }));
  }
}
