/**
 * The bad-input table: each row a resource's inputs (or a function's arguments) that must fail
 * before any request, with a message naming the property. test/unit/provider/badInput.test.ts runs
 * every row through the resources' `check` and the functions; test/e2e/badInput.test.ts runs one
 * row of each kind, and each row marked `engine`, through the engine, for each front end.
 */

/** Whether a row also runs through the engine on both front ends (test/e2e/badInput.test.ts), beside the first row of its kind. */
export interface RowOptions {
  engine?: boolean;
}

/**
 * One bad input: label, kind (a resource's name, or `fn:` and a function's name), arguments, the
 * error it must give, and where else it runs.
 */
export type Row = [label: string, kind: string, args: Record<string, unknown>, expected: RegExp, options?: RowOptions];

/** The kind a row covers: the resource's name, or "fn" for every function. */
export const kindOf = (row: Row): string => (row[1].startsWith("fn:") ? "fn" : row[1]);

const int = (over: Record<string, unknown>) => ({ identifier: "bad", providerId: "sendgrid", channel: "email", ...over });
const wf = (over: Record<string, unknown>) => ({ workflowId: "bad", name: "Bad", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }], ...over });
const step = (s: Record<string, unknown>) => wf({ steps: [s] });
const cred = (over: Record<string, unknown>) => ({ subscriberId: "alice", providerId: "slack", credentials: { webhookUrl: "https://hooks.example/x" }, ...over });
const envr = (over: Record<string, unknown>) => ({ name: "Staging", color: "#3498db", ...over });
const envVar = (over: Record<string, unknown>) => ({ key: "BASE_URL", values: { env_env0: "https://x" }, ...over });
const lay = (over: Record<string, unknown>) => ({ layoutId: "bad", name: "Bad", ...over });
const lemail = (email: Record<string, unknown>) => lay({ controlValues: { email } });
const topic = (over: Record<string, unknown>) => ({ key: "bad", ...over });
const ctx = (over: Record<string, unknown>) => ({ type: "tenant", contextId: "bad", ...over });
const dom = (over: Record<string, unknown>) => ({ name: "mail.example.com", ...over });
const tr = (over: Record<string, unknown>) => ({ resourceType: "workflow", resourceId: "welcome", locale: "fr_FR", content: { hello: "Bonjour" }, ...over });
const without = (o: Record<string, unknown>, k: string) => { const c = { ...o }; delete c[k]; return c; };

/** Every bad input, by kind. */
export const ROWS: Row[] = [
  // Integration
  ["unknown channel", "Integration", int({ channel: "fax" }), /channel: must be one of .*"email"/],
  ["channel of the wrong type", "Integration", int({ channel: 5 }), /channel: must be one of/],
  ["missing identifier", "Integration", without(int({}), "identifier"), /identifier: is required/],
  ["missing providerId", "Integration", without(int({}), "providerId"), /providerId: is required/],
  ["empty identifier", "Integration", int({ identifier: "" }), /identifier: must not be empty/],
  ["name not a string", "Integration", int({ name: 123 }), /name: must be a string/],
  ["active not a boolean", "Integration", int({ active: "yes" }), /active: must be a boolean/],
  ["misspelt credentials key", "Integration", int({ credentials: { apikey: "x" } }), /credentials.*apikey.*did you mean .apiKey/],
  ["credential of the wrong type", "Integration", int({ credentials: { apiKey: 5 } }), /credentials\.apiKey: must be a string/],
  ["boolean credential as a string", "Integration", int({ credentials: { secure: "true" } }), /credentials\.secure: must be a boolean/],
  ["conditions not a list", "Integration", int({ conditions: "tier=gold" }), /conditions: must be an array/],
  ["condition with an unknown operator", "Integration", int({ conditions: [{ isNegated: false, type: "BOOLEAN", value: "AND", children: [{ field: "f", value: "v", operator: "ALMOST", on: "payload" }] }] }), /conditions\[0\]\.children\[0\]\.operator: must be one of/],
  ["condition missing its join", "Integration", int({ conditions: [{ isNegated: false, type: "BOOLEAN", children: [] }] }), /conditions\[0\]\.value: must be one of "AND", "OR"/],
  ["configurations of the wrong type", "Integration", int({ configurations: { inboundWebhookEnabled: "yes" } }), /configurations\.inboundWebhookEnabled: must be a boolean/],
  ["control character in identifier", "Integration", int({ identifier: "a\u0001b" }), /identifier: must not contain control characters/],
  ["oversized name", "Integration", int({ name: "n".repeat(5000) }), /name: must be at most 200 characters/],
  ["misspelt top-level input", "Integration", int({ identifer: "x" }), /identifer.*did you mean .identifier/],
  ["primary but inactive", "Integration", int({ primary: true, active: false }), /primary: a primary integration is always active/],
  ["check not a boolean", "Integration", int({ check: "no" }), /check: must be a boolean/],
  // Workflow
  ["missing workflowId", "Workflow", without(wf({}), "workflowId"), /workflowId: is required/],
  ["workflowId not a slug", "Workflow", wf({ workflowId: "bad id!" }), /workflowId: must be a slug/],
  ["workflowId ending in a separator", "Workflow", wf({ workflowId: "welcome-" }), /workflowId: must be a slug: letters and digits, with -, _ or \. only between them/],
  ["throttle unit production refuses", "Workflow", step({ name: "T", type: "throttle", controlValues: { type: "fixed", amount: 1, unit: "weeks" } }), /steps\[0\]\.controlValues\.unit: must be one of "minutes", "hours", "days"/],
  ["http_request step without a url", "Workflow", step({ name: "Call", type: "http_request", controlValues: { method: "GET" } }), /steps\[0\]\.controlValues\.url: an http_request step requires a url/],
  ["missing name", "Workflow", without(wf({}), "name"), /name: is required/],
  ["missing steps", "Workflow", without(wf({}), "steps"), /steps: is required/],
  ["unknown step type", "Workflow", step({ name: "X", type: "carrier_pigeon" }), /steps\[0\]\.type: must be one of/],
  // A typo of a step kind, as a new user made one: the message names the value given, the kinds allowed and the closest.
  ["misspelt step type", "Workflow", step({ name: "E", type: "emial", controlValues: { subject: "s", body: "b" } }),
    /steps\[0\]\.type: must be one of "in_app", "email", .* \(given "emial": did you mean "email"\?\)/, { engine: true }],
  ["email step without a subject", "Workflow", step({ name: "E", type: "email", controlValues: { body: "b" } }), /steps\[0\]\.controlValues\.subject: an email step requires a subject/],
  ["in-app step with neither body nor subject", "Workflow", step({ name: "I", type: "in_app", controlValues: {} }), /steps\[0\]\.controlValues\.body: an in_app step needs a non-empty body or subject/],
  ["delay in an unknown unit", "Workflow", step({ name: "D", type: "delay", controlValues: { amount: 1, unit: "fortnights" } }), /steps\[0\]\.controlValues\.unit: must be one of/],
  ["negative delay", "Workflow", step({ name: "D", type: "delay", controlValues: { amount: -1, unit: "hours" } }), /steps\[0\]\.controlValues\.amount/],
  ["avatar that is not a URL", "Workflow", step({ name: "I", type: "in_app", controlValues: { body: "b", avatar: "not a url" } }), /steps\[0\]\.controlValues\.avatar: must be a valid http\(s\) URL/],
  ["redirect to a javascript: URL", "Workflow", step({ name: "I", type: "in_app", controlValues: { body: "b", redirect: { url: "javascript:alert(1)" } } }), /steps\[0\]\.controlValues\.redirect\.url: must be a valid http\(s\) URL/],
  ["unknown control value on an email step", "Workflow", step({ name: "E", type: "email", controlValues: { subject: "s", body: "b", bcc: "x" } }), /steps\[0\]\.controlValues.*bcc/],
  ["unknown severity", "Workflow", wf({ severity: "urgent" }), /severity: must be one of/],
  ["tags not a list", "Workflow", wf({ tags: "a" }), /tags: must be an array/],
  ["preferences of the wrong type", "Workflow", wf({ preferences: { workflow: { all: { enabled: "yes", readOnly: false }, channels: {} } } }), /preferences\.workflow\.all\.enabled: must be a boolean/],
  ["payloadSchema not an object", "Workflow", wf({ payloadSchema: "x" }), /payloadSchema: must be an? (record|object)/],
  ["duplicate stepIds", "Workflow", wf({ steps: [{ name: "A", type: "sms", stepId: "s" }, { name: "B", type: "sms", stepId: "s" }] }), /steps\[1\]\.stepId: duplicates the stepId of steps\[0\]/],
  ["control character in a tag", "Workflow", wf({ tags: ["ok", "b\u0007ad"] }), /tags\[1\]: must not contain control characters/],
  // SubscriberCredentials
  // An unknown provider id of the right shape is accepted (production adds providers); a near miss is a typo.
  ["subscriber provider one edit from a known one", "SubscriberCredentials", cred({ providerId: "slak" }), /providerId: unknown provider "slak": did you mean "slack"\?/],
  ["subscriber provider of another shape", "SubscriberCredentials", cred({ providerId: "Carrier Pigeon" }), /providerId: must be a provider id \(lowercase letters and digits/],
  ["repeated device token", "SubscriberCredentials", cred({ providerId: "fcm", credentials: { deviceTokens: ["t1", "t1"] } }), /credentials\.deviceTokens: must not repeat a token/],
  ["missing subscriberId", "SubscriberCredentials", without(cred({}), "subscriberId"), /subscriberId: is required/],
  ["missing credentials", "SubscriberCredentials", without(cred({}), "credentials"), /credentials: is required \(object\)/],
  ["webhookUrl that is not a URL", "SubscriberCredentials", cred({ credentials: { webhookUrl: "hooks.example/x" } }), /credentials\.webhookUrl: must be a valid http\(s\) URL/],
  ["misspelt channel credential", "SubscriberCredentials", cred({ credentials: { webhookurl: "https://hooks.example/x" } }), /webhookurl.*did you mean .webhookUrl/],
  ["deviceTokens not a list", "SubscriberCredentials", cred({ providerId: "fcm", credentials: { deviceTokens: "abc" } }), /credentials\.deviceTokens: must be an array/],
  ["newline in subscriberId", "SubscriberCredentials", cred({ subscriberId: "ali\u000bce" }), /subscriberId: must not contain control characters/],
  // Environment
  ["environment colour that is not hex", "Environment", envr({ color: "blue" }), /color: must be a hex colour such as #3498db/],
  ["environment without a colour", "Environment", without(envr({}), "color"), /color: is required to create an environment/],
  ["environment named Development without adopt", "Environment", envr({ name: "Development" }), /name: the Development environment always exists and cannot be created; set adopt: true/],
  ["environment named production in lower case", "Environment", envr({ name: "production" }), /name: the service reserves Development and Production/],
  ["environment name with surrounding spaces", "Environment", envr({ name: " Staging " }), /name: must not start or end with whitespace/],
  // EnvironmentVariable
  ["variable key starting with a digit", "EnvironmentVariable", envVar({ key: "1URL" }), /key: must start with a letter followed by letters, digits or underscores/],
  ["variable value over 256 characters", "EnvironmentVariable", envVar({ values: { env_env0: "v".repeat(300) } }), /values\.env_env0: must be at most 256 characters/],
  ["variable value that is the mask", "EnvironmentVariable", envVar({ values: { env_env0: "\u2022".repeat(8) } }), /values\.env_env0: must not be the mask/],
  ["variable of an unknown type", "EnvironmentVariable", envVar({ type: "number" }), /type: must be one of "string"/],
  // Context
  ["context type with a colon", "Context", ctx({ type: "tenant:eu" }), /type: must contain only letters, digits, _ and -/],
  ["missing context id", "Context", without(ctx({}), "contextId"), /contextId: is required/],
  ["context id over 100 characters", "Context", ctx({ contextId: "c".repeat(101) }), /contextId: must be at most 100 characters/],
  ["context data not an object", "Context", ctx({ data: "plan=pro" }), /data: must be a record/],
  ["context data over 64 KiB", "Context", ctx({ data: { blob: "x".repeat(64 * 1024) } }), /data: must be at most 64 KiB as JSON/],
  ["misspelt context field", "Context", ctx({ contextID: "x" }), /contextID/],
  // Translation
  ["translation resource type unknown", "Translation", tr({ resourceType: "topic" }), /resourceType: must be one of "workflow", "layout"/],
  ["translation locale with a dash", "Translation", tr({ locale: "fr-FR" }), /locale: write "fr_FR": the service stores locales with _ between the parts/],
  ["translation locale not a locale", "Translation", tr({ locale: "French" }), /locale: must be a locale code/],
  ["translation without content", "Translation", without(tr({}), "content"), /content: is required/],
  ["translation content not an object", "Translation", tr({ content: ["Bonjour"] }), /content: must be a record/],
  // Domain
  ["domain name in upper case", "Domain", dom({ name: "Mail.Example.com" }), /name: write "mail\.example\.com": the service stores domain names in lower case/],
  ["domain name not a domain", "Domain", dom({ name: "localhost" }), /name: must be a domain name/],
  ["route address with an @", "Domain", dom({ routes: { "support@example.com": { type: "webhook" } } }), /routes\.support@example\.com: must be an inbox address local part/],
  ["route addresses one to the service", "Domain", dom({ routes: { Sales: { type: "webhook" }, sales: { type: "webhook" } } }), /routes\.sales: is the address "sales" to the service \(which trims and lower-cases addresses\), as "Sales" is/],
  ["agent route without agentId", "Domain", dom({ routes: { bot: { type: "agent" } } }), /routes\.bot\.agentId: an agent route needs agentId/],
  ["domain data over 10 keys", "Domain", dom({ data: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"])) }), /data: must have at most 10 keys/],
  ["route type unknown", "Domain", dom({ routes: { support: { type: "email" } } }), /routes\.support\.type: must be one of "webhook", "agent"/],
  // Functions (Environment)
  ["getEnvironments unknown argument", "fn:getEnvironments", { nmae: "Development" }, /getEnvironments: invalid arguments: unknown argument "nmae"/],
  // Layout
  ["missing layoutId", "Layout", without(lay({}), "layoutId"), /layoutId: is required/],
  ["layout name over 128 characters", "Layout", lay({ name: "n".repeat(129) }), /name: must be at most 128 characters/],
  ["layout editor type unknown", "Layout", lemail({ body: "<html><body>{{ content }}</body></html>", editorType: "mjml" }), /controlValues\.email\.editorType: must be one of "html", "block"/],
  ["html layout body that is not a whole document", "Layout", lemail({ body: "<p>{{ content }}</p>", editorType: "html" }), /controlValues\.email\.body: an html layout body must be a whole HTML document: it lacks <html/],
  ["html layout body without the content variable", "Layout", lemail({ body: "<html><body>x</body></html>", editorType: "html" }), /controlValues\.email\.body: an html layout body must contain the content variable/],
  ["block layout body that is not a block document", "Layout", lemail({ body: "<html></html>", editorType: "block" }), /controlValues\.email\.body: a block layout body must be a stringified block-editor document/],
  ["layout email without a body", "Layout", lemail({ editorType: "html" }), /controlValues\.email\.body: is required/],
  ["misspelt layout control", "Layout", lay({ controlValues: { emial: {} } }), /controlValues.*emial/],
  // Topic
  ["topic key with a space", "Topic", topic({ key: "daily news" }), /key: must contain only letters, digits, -, _, : and \./],
  ["topic key over 100 characters", "Topic", topic({ key: "k".repeat(101) }), /key: must be at most 100 characters/],
  ["empty topic name", "Topic", topic({ name: "" }), /name: must not be empty/],
  ["subscriber listed twice", "Topic", topic({ subscribers: ["alice", "bob", "alice"] }), /subscribers\[2\]: lists subscriber "alice" again/],
  ["subscribers not a list", "Topic", topic({ subscribers: "alice" }), /subscribers: must be an array/],
  // Functions
  ["getLayouts unknown order field", "fn:getLayouts", { orderBy: "size" }, /getLayouts: invalid arguments: orderBy: must be one of/],
  ["getTopics maxResults 0", "fn:getTopics", { maxResults: 0 }, /getTopics: invalid arguments: maxResults/],
  ["getSubscribers page size over 100", "fn:getSubscribers", { limit: 500 }, /getSubscribers: invalid arguments: limit/],
  ["getSubscribers maxResults 0", "fn:getSubscribers", { maxResults: 0 }, /getSubscribers: invalid arguments: maxResults/],
  ["getMessages unknown channel", "fn:getMessages", { channel: "fax" }, /getMessages: invalid arguments: channel: must be one of/],
  ["getEvents limit over 50", "fn:getEvents", { limit: 51 }, /getEvents: invalid arguments: limit/],
  ["getEvents channels with a step type", "fn:getEvents", { channels: ["digest"] }, /getEvents: invalid arguments: channels\[0\]: must be one of "in_app", "email", "sms", "chat", "push", "tool"/],
  ["getEvents after not a timestamp", "fn:getEvents", { after: "yesterday" }, /getEvents: invalid arguments: after: must be an ISO 8601 timestamp/],
  ["getEvent without an id", "fn:getEvent", {}, /getEvent: invalid arguments: notificationId/],
  ["getSubscriber empty id", "fn:getSubscriber", { subscriberId: "" }, /getSubscriber: invalid arguments: subscriberId: must not be empty/],
  ["getWorkflows unknown status", "fn:getWorkflows", { status: ["PAUSED"] }, /getWorkflows: invalid arguments: status\[0\]: must be one of/],
  ["getIntegrations unknown argument", "fn:getIntegrations", { chanel: "email" }, /getIntegrations: invalid arguments: unknown argument "chanel"/],
  ["getTranslations unknown resource type", "fn:getTranslations", { resourceType: "topic", resourceId: "x" }, /getTranslations: invalid arguments: resourceType: must be one of "workflow", "layout"/],
  ["getDomains maxResults 0", "fn:getDomains", { maxResults: 0 }, /getDomains: invalid arguments: maxResults/],
  ["getContexts unknown argument", "fn:getContexts", { type: "tenant" }, /getContexts: invalid arguments: unknown argument "type"/],
];
