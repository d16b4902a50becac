/**
 * Reads stay open: whatever the service returns is read without failing, and values this release
 * does not know pass through to outputs and function results (production-notes.md, Second pass,
 * "Reads must stay open"). The shapes below are production's: origins and provider ids spelt with
 * the service's own name (its packages/shared/src/types/general.ts, `ResourceOriginEnum`), step
 * kinds and channels added after this release, an agent integration without a channel.
 */
import { describe, expect, it } from "vitest";
import { EventPage, Integration, MessagePage, Subscriber, Workflow, WorkflowListPage } from "../../provider/schemas";
import { toWorkflowOutputs } from "../../provider/resources/workflow";
import { toIntegrationOutputs } from "../../provider/resources/integration";

const step = (type: string, extra: Record<string, unknown> = {}) => ({
  _id: `s-${type}`, stepId: type, name: type, slug: `${type}_st_1`, type, origin: "novu-cloud", workflowId: "w", workflowDatabaseId: "w1",
  controls: { values: { model: "m1" } }, controlValues: { model: "m1" }, variables: {}, ...extra,
});

describe("response schemas read values this release does not know", () => {
  it("reads a workflow with an http_request step, a step kind that does not exist yet and production's origin, and maps them through", () => {
    const w = Workflow.parse({
      _id: "w1", workflowId: "w", slug: "w_wf_1", name: "W", createdAt: "t", updatedAt: "t", origin: "novu-cloud", status: "PAUSED",
      severity: "critical", preferences: {}, steps: [step("http_request"), step("ai_agent", { issues: { controls: { x: [{ issueType: "NEW_ISSUE", message: "m" }] } } })],
      newField: { kept: true },
    });
    expect(w.newField).toEqual({ kept: true });
    const outs = toWorkflowOutputs(w);
    expect(outs).toMatchObject({ origin: "novu-cloud", status: "PAUSED", severity: "critical" });
    expect((outs.steps as { type: string; controlValues: unknown }[]).map((s) => [s.type, s.controlValues])).toEqual([["http_request", { model: "m1" }], ["ai_agent", { model: "m1" }]]);
  });

  it("reads a step whose controls the service leaves out", () => {
    const { controls: _c, controlValues: _v, ...bare } = step("ai_agent");
    const w = Workflow.parse({ _id: "w1", workflowId: "w", slug: "s", name: "W", createdAt: "t", updatedAt: "t", origin: "external", status: "ACTIVE", severity: "none", preferences: {}, steps: [bare] });
    expect((toWorkflowOutputs(w).steps as { controlValues: unknown }[])[0]!.controlValues).toEqual({});
  });

  it("reads workflow list items with unknown step types in their overviews", () => {
    const page = WorkflowListPage.parse({
      totalCount: 1,
      workflows: [{ _id: "w1", workflowId: "w", slug: "s", name: "W", createdAt: "t", updatedAt: "t", status: "ACTIVE", origin: "novu-cloud-v1", stepTypeOverviews: ["ai_agent", "http_request"], steps: [{ slug: "a", type: "ai_agent" }] }],
    });
    expect(page.workflows[0]!.stepTypeOverviews).toEqual(["ai_agent", "http_request"]);
  });

  it("reads an agent integration without a channel and keeps its unknown fields", () => {
    const i = Integration.parse({
      _id: "i1", _environmentId: "e", _organizationId: "o", name: "Agent", identifier: "agent", providerId: "novu-agent", kind: "agent", active: true,
      conditions: [{ isNegated: false, type: "JSON", value: "XOR", children: [{ field: "f", value: 3, operator: "REGEX", on: "context" }] }],
    });
    expect(i.kind).toBe("agent");
    expect(toIntegrationOutputs(i)).toMatchObject({ providerId: "novu-agent", identifier: "agent" });
    expect(toIntegrationOutputs(i).channel).toBeUndefined();
  });

  it("reads events of tool channels, http_request and unknown jobs, and production's provider ids", () => {
    const page = EventPage.parse({
      hasMore: false, page: 0, pageSize: 10,
      data: [{
        _environmentId: "e", _organizationId: "o", _subscriberId: "s", transactionId: "t", channels: ["tool", "in_app"], severity: "critical",
        template: { name: "W", origin: "novu-cloud", triggers: [{ type: "bridge", identifier: "w" }] },
        jobs: [
          { _id: "j1", type: "http_request", status: "completed", providerId: "novu", executionDetails: [{ _id: "d", status: "Skipped", source: "Agent", detail: "x", isRetry: false, isTest: false }], step: { _id: "s", active: true, filters: [], _templateId: "w" } },
          { _id: "j2", type: "ai_agent", status: "running", digest: { type: "sliding", unit: "weeks" } },
        ],
      }],
    });
    expect(page.data[0]!.jobs!.map((j) => j.type)).toEqual(["http_request", "ai_agent"]);
    expect(page.data[0]!.channels).toEqual(["tool", "in_app"]);
  });

  it("reads messages of the tool channel with statuses and CTA values it does not know", () => {
    const page = MessagePage.parse({
      hasMore: false, page: 0, pageSize: 10,
      data: [{ _environmentId: "e", _organizationId: "o", _notificationId: "n", _subscriberId: "s", createdAt: "t", transactionId: "tx", channel: "tool", read: false, seen: false, status: "queued", cta: { type: "open_app" } }],
    });
    expect(page.data[0]).toMatchObject({ channel: "tool", status: "queued" });
  });

  it("reads a subscriber whose channels hold a provider added after this release", () => {
    const s = Subscriber.parse({
      subscriberId: "alice", _organizationId: "o", _environmentId: "e", deleted: false, createdAt: "t", updatedAt: "t",
      channels: [{ providerId: "telegram", credentials: { channel: "123" } }, { providerId: "novu-web-chat" }],
    });
    expect(s.channels!.map((c) => c.providerId)).toEqual(["telegram", "novu-web-chat"]);
  });
});
