/** Messages: `GET /v1/messages`, the messages triggers made, newest first, page by page. */
import { emulatorKind, list } from "../kind";
import type { MessageRecord } from "../records";
import { enumValues } from "../contract";
import { ParamReader, byCreatedDesc, sameSet } from "../params";
import { ofTenant } from "../store";
import type { Route } from "../types";

/** The channels a step sends a message on (the document's `ChannelTypeEnum`). */
export const messageChannels = (): string[] => enumValues("ChannelTypeEnum");

const messageRoutes: Route[] = [
  {
    method: "GET", path: "/v1/messages",
    handler: (c) => {
      const q = c.query;
      const p = new ParamReader(q);
      const page = p.int("page", 0, 0);
      const limit = p.int("limit", 10, 1, 1000);
      const contextKeys = p.contextKeys();
      p.done();
      const channel = q.get("channel");
      const subscriberId = q.get("subscriberId");
      const tx = q.getAll("transactionId");
      const subIds = subscriberId
        ? new Set(ofTenant(c.store.data.subscribers, c.tenant).filter((s) => s.subscriberId === subscriberId).map((s) => s._id))
        : undefined;
      const list = ofTenant(c.store.data.messages, c.tenant).filter((m) =>
        (!channel || m.channel === channel) &&
        (!subIds || subIds.has(m._subscriberId)) &&
        (!tx.length || tx.includes(m.transactionId)) &&
        (!contextKeys || sameSet(contextKeys, m.contextKeys ?? [])))
        .sort(byCreatedDesc);
      const data = list.slice(page * limit, page * limit + limit);
      return { status: 200, bare: true, body: { data, totalCount: list.length, hasMore: (page + 1) * limit < list.length, pageSize: limit, page } };
    },
  },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ messages: list<MessageRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Messages: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: messageRoutes });
