/** The Integration kind, as the tests and the bench see it. */
import fc from "fast-check";
import { opt, text, slug, strip } from "./generate";
import { ok, without, type Apply, type KindDescriptor, type Obj } from "./descriptor";

const PROVIDERS: [string, string][] = [["sendgrid", "email"], ["mailgun", "email"], ["twilio", "sms"], ["slack", "chat"], ["discord", "chat"], ["fcm", "push"], ["apns", "push"]];

const fieldFilter = fc.record({
  field: fc.stringMatching(/^[a-z]{1,8}$/), value: fc.string({ maxLength: 12 }),
  operator: fc.constantFrom("LARGER", "SMALLER", "EQUAL", "NOT_EQUAL", "IN", "LIKE", "BETWEEN"), on: fc.constantFrom("subscriber", "payload"),
});
const stepFilter = fc.record({
  isNegated: fc.boolean(), type: fc.constantFrom("BOOLEAN", "TEXT", "DATE", "NUMBER", "STATEMENT", "LIST", "MULTI_LIST", "GROUP"),
  value: fc.constantFrom("AND", "OR"), children: fc.array(fieldFilter, { maxLength: 3 }),
});
const credentials = fc.record({
  apiKey: opt(fc.string({ minLength: 1, maxLength: 40 })), from: opt(fc.emailAddress()), senderName: opt(text(1, 30)),
  region: opt(fc.constantFrom("us-east-1", "eu-west-1")), secure: opt(fc.boolean()), port: opt(fc.integer({ min: 1, max: 65535 }).map(String)),
}, { requiredKeys: [] });

/** Integration inputs; `suffix` makes the identifier unique to the run. */
export const integrationInputs = (suffix: string) => fc.constantFrom(...PROVIDERS).chain(([providerId, channel]) => fc.record({
  identifier: slug.map((s) => `${s}-${suffix}`),
  name: opt(text(1, 200)),
  providerId: fc.constant(providerId),
  channel: fc.constant(channel),
  // Only delivery: an agent integration of a delivery provider is not known to be accepted by production.
  kind: opt(fc.constant("delivery")),
  credentials: opt(credentials),
  active: opt(fc.boolean()),
  primary: opt(fc.constant(true)),
  conditions: opt(fc.array(stepFilter, { maxLength: 2 })),
  configurations: opt(fc.record({ inboundWebhookEnabled: opt(fc.boolean()), inboundWebhookSigningKey: opt(fc.string({ minLength: 1, maxLength: 20 })) }, { requiredKeys: [] })),
  check: opt(fc.boolean()),
  // The API key's own environment, declared (only that one can be changed and deleted with its key).
  environmentId: opt(fc.constant("env_env0")),
}, { requiredKeys: ["identifier", "providerId", "channel"] }))
  // A primary integration is always active (check refuses active: false with primary: true).
  .map((i) => (i.primary && i.active === false ? { ...i, active: true } : i))
  .map(strip);

const flip = (v: unknown) => !(v as boolean);
const int = (over: Obj) => ({ identifier: "bad", providerId: "sendgrid", channel: "email", ...over });
/** At most one primary per channel: a second would take primary from the first, as declared. */
const onePrimaryPerChannel = (list: Obj[]) => list.filter((x, n) => !x.primary || !list.slice(0, n).some((y) => y.primary && y.channel === x.channel));
const CONDITIONS = [{ isNegated: false, type: "BOOLEAN", value: "AND", children: [{ field: "plan", value: "pro", operator: "EQUAL", on: "subscriber" }] }];

export const integration: KindDescriptor<"Integration"> = {
  kind: "Integration",
  inputs: integrationInputs,
  setup: null,
  prepare: null,
  // The service cannot change an integration's provider, channel or kind (UpdateIntegrationRequestDto
  // of spec/openapi.json has none of them), nor move it to another environment.
  replaceOnChange: ["providerId", "channel", "kind", "environmentId"],
  exact: [],
  handEdits: (i, mode, add) => {
    const put = (body: Obj): Apply => (emu, id) => ok(emu.api("PUT", `/v1/integrations/${id}`, body), "hand edit put integration");
    add("identifier", "renamed", () => put({ identifier: `${String(i.identifier)}-edited` }));
    add("name", "renamed", () => put({ name: `${String(i.name)} (edited)` }));
    // Deactivating a primary integration also unsets primary: two fields, not one.
    if (i.primary !== true) add("active", "toggled", () => put({ active: flip(i.active) }));
    add("conditions", "one more condition", () => put({ conditions: [...(i.conditions as Obj[]), { isNegated: true, type: "TEXT", value: "OR", children: [] }] }));
    // Only a nested key the program declares is compared, so only such a key is edited.
    const cfg = (i.configurations ?? {}) as Obj;
    if (cfg.inboundWebhookEnabled !== undefined) add("configurations", "webhook toggled", () => put({ configurations: { ...cfg, inboundWebhookEnabled: !cfg.inboundWebhookEnabled } }));
    // Production does not return credentials: drift in them cannot be seen there.
    const cred = (i.credentials ?? {}) as Obj;
    if (mode === "spec" && cred.apiKey !== undefined) add("credentials", "key rotated", () => put({ credentials: { ...cred, apiKey: "edited-by-hand" } }));
  },
  deletePath: (_i, id) => `/v1/integrations/${id}`,
  undeletable: null,
  remains: (state, declared) => state.integrations!.filter((x) => !x.deleted && declared.some((d) => d.identifier === x.identifier)),
  adopt: {
    seed: async (emu) => {
      await ok(emu.api("POST", "/v1/integrations", {
        identifier: "sg-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true, check: false, conditions: CONDITIONS,
      }), "seed");
    },
    equal: { identifier: "sg-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true, conditions: CONDITIONS },
    // The API key's environment (the listing spans the organisation), then the listing.
    reads: ["GET /v1/environments", "GET /v1/integrations"],
    differing: { identifier: "sg-main", name: "SendGrid (main)", providerId: "sendgrid", channel: "email", active: true },
    writes: ["PUT /v1/integrations/{integrationId}"],
  },
  // POST /v1/integrations makes it and answers it whole; its body has no `primary`, which is
  // set-primary's own request. The service has no read-one route: GET /v1/integrations answers
  // every integration at once. A rename is one PUT; a delete one DELETE.
  floor: {
    of: (i) => ({ create: i.primary === true ? 2 : 1, read: 0, update: 1, delete: 1 }),
    change: (i) => ({ ...i, name: `${String(i.name ?? i.identifier)} (renamed)` }),
    listing: "GET /v1/integrations",
  },
  badInput: [
    ["unknown channel", int({ channel: "fax" }), /channel: must be one of .*"email"/],
    ["channel of the wrong type", int({ channel: 5 }), /channel: must be one of/],
    ["missing identifier", without(int({}), "identifier"), /identifier: is required/],
    ["missing providerId", without(int({}), "providerId"), /providerId: is required/],
    ["empty identifier", int({ identifier: "" }), /identifier: must not be empty/],
    ["name not a string", int({ name: 123 }), /name: must be a string/],
    ["active not a boolean", int({ active: "yes" }), /active: must be a boolean/],
    ["misspelt credentials key", int({ credentials: { apikey: "x" } }), /credentials.*apikey.*did you mean .apiKey/],
    ["credential of the wrong type", int({ credentials: { apiKey: 5 } }), /credentials\.apiKey: must be a string/],
    ["boolean credential as a string", int({ credentials: { secure: "true" } }), /credentials\.secure: must be a boolean/],
    ["conditions not a list", int({ conditions: "tier=gold" }), /conditions: must be an array/],
    ["condition with an unknown operator", int({ conditions: [{ isNegated: false, type: "BOOLEAN", value: "AND", children: [{ field: "f", value: "v", operator: "ALMOST", on: "payload" }] }] }), /conditions\[0\]\.children\[0\]\.operator: must be one of/],
    ["condition missing its join", int({ conditions: [{ isNegated: false, type: "BOOLEAN", children: [] }] }), /conditions\[0\]\.value: must be one of "AND", "OR"/],
    ["configurations of the wrong type", int({ configurations: { inboundWebhookEnabled: "yes" } }), /configurations\.inboundWebhookEnabled: must be a boolean/],
    ["control character in identifier", int({ identifier: "a\u0001b" }), /identifier: must not contain control characters/],
    ["oversized name", int({ name: "n".repeat(5000) }), /name: must be at most 200 characters/],
    ["misspelt top-level input", int({ identifer: "x" }), /identifer.*did you mean .identifier/],
    ["primary but inactive", int({ primary: true, active: false }), /primary: a primary integration is always active/],
    ["check not a boolean", int({ check: "no" }), /check: must be a boolean/],
  ],
  stack: {
    max: 2, unique: (i) => i.identifier,
    keep: onePrimaryPerChannel,
  },
  exportSoak: {
    max: 2, unique: (i) => i.identifier,
    keep: onePrimaryPerChannel,
  },
  bench: {
    per: "rest",
    args: (i) => ({
      identifier: `bench-int-${i}`, name: `Bench ${i}`, providerId: "sendgrid", channel: "email", active: true,
      credentials: { apiKey: `SG.bench-${i}`, from: "no-reply@example.com" },
    }),
  },
  scenario: { declared: { identifier: "scenario-sendgrid", name: "Scenario", providerId: "sendgrid", channel: "email", active: true } },
  openapiCases: {
    "GET /v1/integrations": (c) => c.call(200, "/v1/integrations"),
    "GET /v1/integrations/active": (c) => c.call(200, "/v1/integrations/active"),
    "POST /v1/integrations": (c) => c.call(201, "/v1/integrations", { identifier: "sendgrid-case", providerId: "sendgrid", channel: "email", credentials: { apiKey: "k" } }),
    "PUT /v1/integrations/{integrationId}": (c) => c.call(200, `/v1/integrations/${c.made.integrationId}`, { name: "Slack" }),
    "DELETE /v1/integrations/{integrationId}": async (c) => {
      const i = (await c.api("POST", "/v1/integrations", { identifier: "doomed", providerId: "twilio", channel: "sms", credentials: {} })).body;
      return c.call(200, `/v1/integrations/${i._id}`);
    },
    "POST /v1/integrations/{integrationId}/set-primary": (c) => c.call(200, `/v1/integrations/${c.made.integrationId}/set-primary`),
  },
  // Create with set-primary, create without credentials, read, update, adopt, delete; getIntegrations.
  requests: {
    run: async ({ moduleOf, created, client, fns }) => {
      const integration = moduleOf("integration");
      const sendgrid = await created(integration, {
        identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true, primary: true,
        credentials: { apiKey: "SG.key", from: "no-reply@example.com" },
        conditions: [{ isNegated: false, type: "BOOLEAN", value: "AND", children: [{ field: "plan", value: "pro", operator: "EQUAL", on: "subscriber" }] }],
        configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: "whsec" },
      });
      await integration.provider.read(sendgrid.id, sendgrid.outs);
      await integration.provider.update(sendgrid.id, sendgrid.outs, { ...sendgrid.inputs, name: "SendGrid (main)", credentials: { apiKey: "SG.rotated" } });
      const slack = await created(integration, { identifier: "slack-support", providerId: "slack", channel: "chat", active: true });
      await client.integrations.create({ identifier: "twilio-existing", providerId: "twilio", channel: "sms", active: false, check: false });
      const adopted = await created(integration, { identifier: "twilio-existing", providerId: "twilio", channel: "sms", active: true, adopt: true });
      // A second active email integration is not made primary by its create (the first was): set-primary makes it.
      const backup = await created(integration, { identifier: "mailgun-backup", providerId: "mailgun", channel: "email", active: true, primary: true, credentials: { apiKey: "key-1", domain: "mg.example.com" } });
      await fns.getIntegrations({ channel: "email", activeOnly: true });
      return async () => {
        for (const r of [sendgrid, slack, adopted, backup]) await integration.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
