/** Subscriber operations: search, get, create, patch, delete, and provider credentials. */
import type { z } from "zod";
import { Subscriber, SubscriberSearchPage, type CreateSubscriberBody, type PatchSubscriberBody, type UpdateSubscriberCredentialsBody, type OrderDirection } from "../schemas";
import type { HttpTransport } from "./http";

/** Query of `GET /v2/subscribers`. */
export interface SearchSubscribersQuery {
  after?: string;
  before?: string;
  limit?: number;
  orderDirection?: z.infer<typeof OrderDirection>;
  orderBy?: string;
  includeCursor?: boolean;
  email?: string;
  name?: string;
  phone?: string;
  subscriberId?: string;
}

/** `/v1/subscribers` and `/v2/subscribers` */
export class SubscribersApi {
  constructor(private readonly http: HttpTransport) {}

  /** `GET /v2/subscribers` */
  search(query: SearchSubscribersQuery = {}): Promise<SubscriberSearchPage> {
    return this.http.request({ operation: "search subscribers", method: "GET", route: "/v2/subscribers", query: { ...query }, schema: SubscriberSearchPage });
  }

  /** `GET /v2/subscribers/{subscriberId}` */
  get(subscriberId: string): Promise<Subscriber> {
    return this.http.request({ operation: `get subscriber "${subscriberId}"`, method: "GET", route: "/v2/subscribers/{subscriberId}", params: { subscriberId }, schema: Subscriber });
  }

  /**
   * `POST /v2/subscribers` (production): an upsert, which updates a subscriber of that id; with
   * `failIfExists` the service answers 409 instead.
   */
  create(body: CreateSubscriberBody, options: { failIfExists?: boolean } = {}): Promise<Subscriber> {
    return this.http.request({
      operation: `create subscriber "${body.subscriberId}"`, method: "POST", route: "/v2/subscribers", body, schema: Subscriber,
      query: options.failIfExists ? { failIfExists: true } : undefined,
    });
  }

  /** `PATCH /v2/subscribers/{subscriberId}` */
  update(subscriberId: string, body: PatchSubscriberBody): Promise<Subscriber> {
    return this.http.request({ operation: `update subscriber "${subscriberId}"`, method: "PATCH", route: "/v2/subscribers/{subscriberId}", params: { subscriberId }, body, schema: Subscriber });
  }

  /** `DELETE /v2/subscribers/{subscriberId}`: the subscriber with its credentials, preferences and topic subscriptions. */
  async delete(subscriberId: string): Promise<void> {
    await this.http.request({ operation: `delete subscriber "${subscriberId}"`, method: "DELETE", route: "/v2/subscribers/{subscriberId}", params: { subscriberId }, schema: undefined });
  }

  /** `PUT /v1/subscribers/{subscriberId}/credentials`: creates or replaces one provider's credentials. */
  updateCredentials(subscriberId: string, body: UpdateSubscriberCredentialsBody): Promise<Subscriber> {
    return this.http.request({ operation: `update credentials of subscriber "${subscriberId}"`, method: "PUT", route: "/v1/subscribers/{subscriberId}/credentials", params: { subscriberId }, body, schema: Subscriber });
  }

  /** `DELETE /v1/subscribers/{subscriberId}/credentials/{providerId}` (production): every entry of that provider. */
  async deleteCredentials(subscriberId: string, providerId: string): Promise<void> {
    await this.http.request({ operation: `delete ${providerId} credentials of subscriber "${subscriberId}"`, method: "DELETE", route: "/v1/subscribers/{subscriberId}/credentials/{providerId}", params: { subscriberId, providerId }, schema: undefined });
  }
}
