/** Message operations. */
import { MessagePage, type Channel } from "../schemas";
import type { HttpTransport } from "./http";

/** Query of `GET /v1/messages`. */
export interface ListMessagesQuery {
  channel?: Channel;
  subscriberId?: string;
  transactionId?: string[];
  contextKeys?: string[];
  page?: number;
  limit?: number;
}

/** `/v1/messages` */
export class MessagesApi {
  constructor(private readonly http: HttpTransport) {}

  /** `GET /v1/messages` */
  list(query: ListMessagesQuery = {}): Promise<MessagePage> {
    return this.http.request({ operation: "list messages", method: "GET", route: "/v1/messages", query: { ...query }, schema: MessagePage });
  }
}
