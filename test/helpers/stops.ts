/**
 * The first write of each create that is more than one request, by the implementation module that
 * makes it: where a server that stops (the emulator's `stopAfter` fault) leaves an object made and
 * not finished. The component layer stops each module there
 * (test/component/provider/resources/stateNeverLies.test.ts); the reliability tests stop an up of
 * the bench's mix there (test/e2e/reliability.test.ts, every one in the soak run).
 */
export const FIRST_WRITES = {
  integration: { method: "POST", route: "/v1/integrations" },
  layout: { method: "POST", route: "/v2/layouts" },
  topic: { method: "POST", route: "/v2/topics" },
  agent: { method: "POST", route: "/v1/agents" },
  environment: { method: "POST", route: "/v1/environments" },
  domain: { method: "POST", route: "/v1/domains" },
} as const;

/** A module of {@link FIRST_WRITES}. */
export type MultiRequestModule = keyof typeof FIRST_WRITES;
