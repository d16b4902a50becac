/** Workflow operations: list, get, create, update, patch, delete, and a step's preview. */
import type { z } from "zod";
import { StepPreview, Workflow, WorkflowListPage, type CreateWorkflowBody, type StepPreviewBody, type UpdateWorkflowBody, type OrderDirection, type WorkflowStatus } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import type { HttpTransport } from "./http";

/** Query of `GET /v2/workflows`. */
export interface ListWorkflowsQuery {
  limit?: number;
  offset?: number;
  orderDirection?: z.infer<typeof OrderDirection>;
  orderBy?: "createdAt" | "updatedAt" | "name" | "lastTriggeredAt";
  query?: string;
  tags?: string[];
  status?: z.infer<typeof WorkflowStatus>[];
}

/** `/v2/workflows` */
export class WorkflowsApi {
  constructor(private readonly http: HttpTransport) {}

  /** `GET /v2/workflows` */
  list(query: ListWorkflowsQuery = {}): Promise<WorkflowListPage> {
    return this.http.request({ operation: "list workflows", method: "GET", route: "/v2/workflows", query: { ...query }, schema: WorkflowListPage });
  }

  /** `GET /v2/workflows/{workflowId}`: by workflowId, slug or database id. */
  get(workflowId: string): Promise<Workflow> {
    return this.http.request({ operation: `get workflow "${workflowId}"`, method: "GET", route: "/v2/workflows/{workflowId}", params: { workflowId }, schema: Workflow });
  }

  /** `POST /v2/workflows` */
  create(body: CreateWorkflowBody): Promise<Workflow> {
    return this.http.request({ operation: `create workflow "${body.workflowId}"`, method: "POST", route: "/v2/workflows", creates: true, body, schema: Workflow });
  }

  /** `PUT /v2/workflows/{workflowId}`: replaces the step list; steps are matched by `_id`. */
  update(workflowId: string, body: UpdateWorkflowBody): Promise<Workflow> {
    return this.http.request({ operation: `update workflow "${workflowId}"`, method: "PUT", route: "/v2/workflows/{workflowId}", params: { workflowId }, body, schema: Workflow });
  }

  /** `PATCH /v2/workflows/{workflowId}`: writes the fields sent, none of the steps; answers the whole workflow. */
  patch(workflowId: string, body: RequestBody<"WorkflowController_patchWorkflow">): Promise<Workflow> {
    return this.http.request({ operation: `update workflow "${workflowId}"`, method: "PATCH", route: "/v2/workflows/{workflowId}", params: { workflowId }, body, schema: Workflow });
  }

  /**
   * `POST /v2/workflows/{workflowId}/step/{stepId}/preview`: the step rendered with the body's
   * payload, and its `controlValues` in place of the stored ones when given. The service answers an
   * unknown workflow or step with an empty preview, not an error.
   */
  preview(workflowId: string, stepId: string, body: StepPreviewBody): Promise<StepPreview> {
    return this.http.request({
      operation: `preview step "${stepId}" of workflow "${workflowId}"`, method: "POST", route: "/v2/workflows/{workflowId}/step/{stepId}/preview",
      params: { workflowId, stepId }, body, schema: StepPreview,
    });
  }

  /** `DELETE /v2/workflows/{workflowId}` */
  async delete(workflowId: string): Promise<void> {
    await this.http.request({ operation: `delete workflow "${workflowId}"`, method: "DELETE", route: "/v2/workflows/{workflowId}", params: { workflowId }, schema: undefined });
  }
}
