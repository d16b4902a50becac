/** Event operations: list, get, and trigger (production). */
import { Event, EventPage, TriggerResult, type TriggerBody } from "../schemas";
import type { HttpTransport } from "./http";

/** Query of `GET /v1/notifications`. */
export interface ListEventsQuery {
  channels?: string[];
  templates?: string[];
  emails?: string[];
  /** @deprecated The service deprecates free-text search; use the specific filters. */
  search?: string;
  subscriberIds?: string[];
  severity?: string[];
  page?: number;
  limit?: number;
  transactionId?: string;
  topicKey?: string;
  contextKeys?: string[];
  after?: string;
  before?: string;
}

/** `/v1/notifications` and `/v1/events/trigger` */
export class EventsApi {
  constructor(private readonly http: HttpTransport) {}

  /** `GET /v1/notifications` */
  list(query: ListEventsQuery = {}): Promise<EventPage> {
    return this.http.request({ operation: "list events", method: "GET", route: "/v1/notifications", query: { ...query }, schema: EventPage });
  }

  /** `GET /v1/notifications/{notificationId}` */
  get(notificationId: string): Promise<Event> {
    return this.http.request({ operation: `get event "${notificationId}"`, method: "GET", route: "/v1/notifications/{notificationId}", params: { notificationId }, schema: Event });
  }

  /** `POST /v1/events/trigger` (production) */
  trigger(body: TriggerBody): Promise<TriggerResult> {
    return this.http.request({ operation: `trigger "${body.name}"`, method: "POST", route: "/v1/events/trigger", body, schema: TriggerResult });
  }
}
