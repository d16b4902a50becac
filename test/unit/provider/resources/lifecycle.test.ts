/**
 * A resource operation's failure (provider/resources/lifecycle.ts): a refused API key (401) is the
 * one failure whose fix lies outside the program, so its message says where the key comes from
 * (`notify:apiKey`, `NOTIFY_API_KEY`) and how a rotated key reaches refresh and destroy
 * (`--run-program`, or an `up`). test/component/provider/functions/unauthorized.test.ts checks a
 * function's 401 against the emulator.
 */
import { describe, expect, it } from "vitest";
import { NotifyApiError } from "../../../../provider/client";
import { UNAUTHORIZED_HINT } from "../../../../provider/config";
import { failure } from "../../../../provider/resources/lifecycle";

const apiError = (status: number) => new NotifyApiError({ status, method: "GET", path: "/v1/integrations", serviceMessage: "refused", attempts: 1 });
const HINT = [/notify:apiKey/, /NOTIFY_API_KEY/, /--run-program/, /pulumi destroy/];

describe("a 401 names the key's config and the rotation steps", () => {
  it("a resource operation's 401 carries the hint", () => {
    const message = failure("read integration", apiError(401)).message;
    expect(message).toMatch(/^Unable to read integration: 401 Unauthorized: refused\. /);
    for (const re of HINT) expect(message).toMatch(re);
    // The hint the functions' 401 carries too (test/component/provider/functions/unauthorized.test.ts).
    expect(message).toContain(UNAUTHORIZED_HINT);
    for (const re of HINT) expect(UNAUTHORIZED_HINT).toMatch(re);
  });

  it("other failures do not", () => {
    expect(failure("read integration", apiError(403)).message).not.toMatch(/notify:apiKey/);
    expect(failure("read integration", apiError(404)).message).not.toMatch(/notify:apiKey/);
  });
});

describe("a failure's hint", () => {
  // The service's messages often end with a full stop ('A domain with name "x" already exists.').
  it("follows the cause as a sentence of its own, with one full stop between them", () => {
    const taken = new NotifyApiError({ status: 409, method: "POST", path: "/v1/domains", serviceMessage: 'A domain with name "x" already exists.', attempts: 1 });
    expect(failure("create domain", taken, "set adopt: true").message).toBe('Unable to create domain: 409 Conflict: A domain with name "x" already exists. set adopt: true');
    expect(failure("create topic", apiError(409), "set adopt: true").message).toBe("Unable to create topic: 409 Conflict: refused. set adopt: true");
  });
});
