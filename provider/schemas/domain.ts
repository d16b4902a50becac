/** Inbound-email domain shapes of spec/openapi.json (`DomainResponseDto`, `DomainRouteResponseDto` and their list pages). */
import { z } from "zod";

/** A DNS record the service expects for a domain (`ExpectedDnsRecordDto`). */
export const ExpectedDnsRecord = z.looseObject({
  type: z.string().describe("The record type (`MX`)."),
  name: z.string().describe("The record name (the domain)."),
  content: z.string().describe("The record content (the service's mail server)."),
  ttl: z.string().describe("The TTL (`Auto`)."),
  priority: z.number().optional().describe("The MX priority."),
}).meta({ id: "ExpectedDnsRecord", description: "A DNS record the service expects for a domain: declare it with your DNS provider." });
export type ExpectedDnsRecord = z.infer<typeof ExpectedDnsRecord>;

/** A domain as the service returns it. */
export const Domain = z.looseObject({
  _id: z.string().describe("The domain's database id."),
  name: z.string().describe("The domain name (lower case)."),
  status: z.string().describe("`pending` until the service has verified the MX record, then `verified`."),
  mxRecordConfigured: z.boolean().describe("Whether the MX record was found at the last verification."),
  expectedDnsRecords: z.array(ExpectedDnsRecord).optional().describe("The DNS records the service expects."),
  data: z.record(z.string(), z.string()).optional().describe("String metadata."),
  createdAt: z.string().optional().describe("When the domain was created (ISO 8601)."),
});
export type Domain = z.infer<typeof Domain>;

/** A domain as getDomains lists it. */
export const DomainSummary = Domain.meta({ id: "DomainSummary", description: "An inbound-email domain: its name, status and expected DNS records." });

/** A route of a domain as the service returns it. */
export const DomainRoute = z.looseObject({
  address: z.string(),
  type: z.string(),
  agentId: z.string().optional(),
  data: z.record(z.string(), z.string()).optional(),
});
export type DomainRoute = z.infer<typeof DomainRoute>;

/** One page of a cursor list (domains or routes). */
const page = <T extends z.ZodType>(item: T) => z.looseObject({
  data: z.array(item), next: z.string().nullable(), previous: z.string().nullable().optional(), totalCount: z.number().optional(),
});
export const DomainListPage = page(Domain);
export type DomainListPage = z.infer<typeof DomainListPage>;
export const DomainRouteListPage = page(DomainRoute);
export type DomainRouteListPage = z.infer<typeof DomainRouteListPage>;
