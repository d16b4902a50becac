/** Integration shapes of spec/api.md, and the request bodies of its create and update. */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import { ChannelRead, StepFilterRead, Timestamp } from "./common";

/** The string-valued credential fields of an integration. */
export const CREDENTIAL_STRING_KEYS = [
  "apiKey", "user", "secretKey", "domain", "password", "host", "port", "region", "accountSid", "messageProfileId",
  "token", "from", "senderName", "projectName", "applicationId", "clientId", "baseUrl", "webhookUrl", "redirectUrl",
  "serviceAccount", "ipPoolName", "apiKeyRequestHeader", "secretKeyRequestHeader", "idPath", "datePath", "apiToken",
  "authenticationTokenKey", "instanceId", "alertUid", "title", "imageUrl", "state", "externalLink", "channelId",
  "phoneNumberIdentification", "accessKey", "appSid", "senderId", "AppIOBaseUrl",
] as const;
/** The boolean-valued credential fields of an integration. */
export const CREDENTIAL_BOOLEAN_KEYS = ["secure", "requireTls", "ignoreTls", "hmac", "authenticateByToken"] as const;
/** Every credential field an integration accepts. */
export const CREDENTIAL_KEYS = [...CREDENTIAL_STRING_KEYS, ...CREDENTIAL_BOOLEAN_KEYS, "tlsOptions"] as const;

const providerSetting = (k: string) => `The provider's \`${k}\` setting (see the provider's own setup for which it needs).`;
const credentialShape = {
  ...Object.fromEntries(CREDENTIAL_STRING_KEYS.map((k) => [k, z.string().optional().describe(providerSetting(k))])),
  ...Object.fromEntries(CREDENTIAL_BOOLEAN_KEYS.map((k) => [k, z.boolean().optional().describe(providerSetting(k))])),
  tlsOptions: z.record(z.string(), z.unknown()).optional().describe("TLS options of SMTP-style providers, passed through to the service."),
} as Record<(typeof CREDENTIAL_STRING_KEYS)[number], z.ZodOptional<z.ZodString>> &
  Record<(typeof CREDENTIAL_BOOLEAN_KEYS)[number], z.ZodOptional<z.ZodBoolean>> & {
    tlsOptions: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
  };

/** Integration credentials as the service returns them (unknown keys kept). */
export const Credentials = z.looseObject(credentialShape);
/** Integration credentials as we send them (unknown keys refused). */
export const CredentialsInput = z.strictObject(credentialShape).meta({
  id: "IntegrationCredentials",
  description: "Credentials of an integration's provider. Which keys a provider uses depends on the provider (for example `apiKey` and `from` for SendGrid, `accountSid`, `token` and `from` for Twilio). Unknown keys are refused.",
});
export type Credentials = z.infer<typeof CredentialsInput>;

/** Inbound webhook settings of an integration. */
export const Configurations = z.looseObject({
  inboundWebhookEnabled: z.boolean().optional(),
  inboundWebhookSigningKey: z.string().optional(),
});
export const ConfigurationsInput = z.strictObject({
  inboundWebhookEnabled: z.boolean().optional().describe("Whether the provider's delivery events are received by the service."),
  inboundWebhookSigningKey: z.string().optional().describe("The key the provider signs its webhooks with."),
}).meta({ id: "IntegrationConfigurations", description: "Inbound webhook settings of an integration." });
export type Configurations = z.infer<typeof ConfigurationsInput>;

/** An integration as the service returns it. `credentials` is absent in production for API-key callers. */
export const Integration = z.looseObject({
  _id: z.string(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  name: z.string(),
  identifier: z.string(),
  providerId: z.string(),
  /** Absent on integrations of another kind (agent integrations have no channel). */
  channel: ChannelRead.optional(),
  credentials: Credentials.optional(),
  configurations: Configurations.optional(),
  active: z.boolean(),
  deleted: z.boolean().optional(),
  deletedAt: Timestamp.nullable().optional(),
  deletedBy: z.string().nullable().optional(),
  primary: z.boolean().optional(),
  conditions: z.array(StepFilterRead).optional(),
});
export type Integration = z.infer<typeof Integration>;
/** An integration as listed by getIntegrations: never its credentials. */
export const IntegrationSummary = Integration.omit({ credentials: true }).meta({ id: "IntegrationSummary", description: "An integration as listed, without its credentials." });

/** Body of `POST /v1/integrations`, as the document has it. */
export type CreateIntegrationBody = RequestBody<"IntegrationsController_createIntegration">;

/** Body of `PUT /v1/integrations/{integrationId}`, as the document has it. */
export type UpdateIntegrationBody = RequestBody<"IntegrationsController_updateIntegrationById">;
