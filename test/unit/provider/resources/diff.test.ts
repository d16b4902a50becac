/** provider/resources/diff.ts: where a new input differs from what the service holds, as the engine's property paths. */
import { describe, expect, it } from "vitest";
import { changedPaths, UNKNOWN } from "../../../../provider/resources/diff";

describe("changedPaths", () => {
  it("names only the value that differs, through the declared shape: not the step ids the service adds", () => {
    // The old outputs of a workflow hold each step's ids; the program declares neither here.
    const olds = {
      steps: [
        { name: "Inbox", type: "in_app", stepId: "inbox", databaseId: "d1", controlValues: { body: "Hi" } },
        { name: "Email", type: "email", stepId: "email", databaseId: "d2", controlValues: { subject: "Edited", body: "<p>Hi</p>" } },
      ],
    };
    const news = {
      steps: [
        { name: "Inbox", type: "in_app", controlValues: { body: "Hi" } },
        { name: "Email", type: "email", stepId: "email", controlValues: { subject: "Hello", body: "<p>Hi</p>" } },
      ],
    };
    expect(changedPaths(olds, news, ["steps"])).toEqual([{ path: "steps[1].controlValues.subject", key: "steps", kind: "update" }]);
  });

  it("says what the program adds and what it removes, element by element", () => {
    const olds = { conditions: [{ type: "A" }, { type: "B" }], preferences: { user: null }, description: "held" };
    const news = { conditions: [{ type: "A" }], preferences: { user: { all: true } } };
    expect(changedPaths({ ...olds, declaredKeys: ["conditions", "preferences", "description"] }, news, ["conditions", "preferences", "description"])).toEqual([
      { path: "conditions[1]", key: "conditions", kind: "delete" },
      { path: "preferences.user", key: "preferences", kind: "add" },
      { path: "description", key: "description", kind: "delete" },
    ]);
  });

  it("compares an exact field whole, so a key only the service holds is removed", () => {
    expect(changedPaths({ routes: { support: { type: "webhook" }, sales: { type: "webhook" } } }, { routes: { support: { type: "webhook" } } }, ["routes"], ["routes"]))
      .toEqual([{ path: "routes.sales", key: "routes", kind: "delete" }]);
  });

  it("quotes a key that is not letters, digits and _, as the engine writes paths", () => {
    expect(changedPaths({ routes: {} }, { routes: { "*": { type: "webhook" }, 'say "hi"': { type: "agent" } } }, ["routes"], ["routes"])).toEqual([
      { path: 'routes["*"]', key: "routes", kind: "add" },
      { path: 'routes["say \\"hi\\""]', key: "routes", kind: "add" },
    ]);
  });

  it("names whole a list of plain values (compared as a set by some resources), a secret field, and an object with a key no path can name", () => {
    expect(changedPaths({ subscribers: ["a", "b"] }, { subscribers: ["b", "c"] }, ["subscribers"])).toEqual([{ path: "subscribers", key: "subscribers", kind: "update" }]);
    expect(changedPaths({ credentials: { apiKey: "x" } }, { credentials: { apiKey: "y" } }, ["credentials"], [], ["credentials"])).toEqual([{ path: "credentials", key: "credentials", kind: "update" }]);
    expect(changedPaths({ data: { "a\\b": "1" } }, { data: { "a\\b": "2" } }, ["data"], ["data"])).toEqual([{ path: "data", key: "data", kind: "update" }]);
  });

  it("names a value unknown until the apply where it is", () => {
    expect(changedPaths({ steps: [{ name: "A", controlValues: { layoutId: "l1" } }] }, { steps: [{ name: "A", controlValues: { layoutId: UNKNOWN } }] }, ["steps"]))
      .toEqual([{ path: "steps[0].controlValues.layoutId", key: "steps", kind: "update" }]);
    expect(changedPaths({ name: "n" }, { name: UNKNOWN }, ["name"])).toEqual([{ path: "name", key: "name", kind: "update" }]);
  });
});
