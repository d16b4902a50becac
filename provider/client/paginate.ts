/** Async iterators over the three kinds of paginated lists, each bounded. */
import type { Event, Message, Subscriber, WorkflowListItem } from "../schemas";
import type { SubscribersApi, SearchSubscribersQuery } from "./subscribers";
import type { WorkflowsApi, ListWorkflowsQuery } from "./workflows";
import type { MessagesApi, ListMessagesQuery } from "./messages";
import type { EventsApi, ListEventsQuery } from "./events";
import type { LayoutSummary, Topic } from "../schemas";
import type { LayoutsApi, ListLayoutsQuery } from "./layouts";
import type { ListTopicsQuery, TopicsApi } from "./topics";
import type { Context } from "../schemas";
import type { ContextsApi, ListContextsQuery } from "./contexts";

/** Upper bound on items a single iteration may pull unless the caller sets one. */
export const DEFAULT_MAX_ITEMS = 10_000;

/** Cursor pagination of subscribers: follows `next` until it is null or `maxItems` are yielded. */
export async function* paginateSubscribers(
  api: SubscribersApi, query: SearchSubscribersQuery = {}, maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<Subscriber, { totalCount: number; totalCountCapped: boolean }> {
  let yielded = 0;
  let after = query.after;
  let meta = { totalCount: 0, totalCountCapped: false };
  while (yielded < maxItems) {
    const page = await api.search({ ...query, after, limit: Math.min(query.limit ?? 100, maxItems - yielded) });
    meta = { totalCount: page.totalCount, totalCountCapped: page.totalCountCapped };
    for (const s of page.data) {
      if (yielded >= maxItems) break;
      yielded++;
      yield s;
    }
    if (!page.next || page.data.length === 0) break;
    after = page.next;
  }
  return meta;
}

/** Offset pagination of workflows. */
export async function* paginateWorkflows(
  api: WorkflowsApi, query: ListWorkflowsQuery = {}, maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<WorkflowListItem> {
  let offset = query.offset ?? 0;
  let yielded = 0;
  const limit = query.limit ?? 100;
  while (yielded < maxItems) {
    const page = await api.list({ ...query, offset, limit });
    for (const w of page.workflows) {
      if (yielded >= maxItems) return;
      yielded++;
      yield w;
    }
    offset += page.workflows.length;
    if (page.workflows.length === 0 || offset >= page.totalCount) return;
  }
}

/** Offset pagination of layouts. */
export async function* paginateLayouts(
  api: LayoutsApi, query: ListLayoutsQuery = {}, maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<LayoutSummary> {
  let offset = query.offset ?? 0;
  let yielded = 0;
  const limit = query.limit ?? 100;
  while (yielded < maxItems) {
    const page = await api.list({ ...query, offset, limit: Math.min(limit, maxItems - yielded) });
    for (const l of page.layouts) {
      if (yielded >= maxItems) return;
      yielded++;
      yield l;
    }
    offset += page.layouts.length;
    if (page.layouts.length === 0 || offset >= page.totalCount) return;
  }
}

/** Cursor pagination of topics: follows `next` until it is null or `maxItems` are yielded. */
export async function* paginateTopics(
  api: TopicsApi, query: ListTopicsQuery = {}, maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<Topic> {
  let yielded = 0;
  let after = query.after;
  while (yielded < maxItems) {
    const page = await api.list({ ...query, after, limit: Math.min(query.limit ?? 100, maxItems - yielded) });
    for (const t of page.data) {
      if (yielded >= maxItems) return;
      yielded++;
      yield t;
    }
    if (!page.next || page.data.length === 0) return;
    after = page.next;
  }
}

/** Cursor pagination of contexts: follows `next` until it is null or `maxItems` are yielded. */
export async function* paginateContexts(
  api: ContextsApi, query: ListContextsQuery = {}, maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<Context> {
  let yielded = 0;
  let after = query.after;
  while (yielded < maxItems) {
    const page = await api.list({ ...query, after, limit: Math.min(query.limit ?? 100, maxItems - yielded) });
    for (const x of page.data) {
      if (yielded >= maxItems) return;
      yielded++;
      yield x;
    }
    if (!page.next || page.data.length === 0) return;
    after = page.next;
  }
}

/** Page pagination of messages. */
export async function* paginateMessages(
  api: MessagesApi, query: ListMessagesQuery = {}, maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<Message> {
  yield* byPage((page) => api.list({ ...query, page }), query.page ?? 0, maxItems);
}

/** Page pagination of events. */
export async function* paginateEvents(
  api: EventsApi, query: ListEventsQuery = {}, maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<Event> {
  yield* byPage((page) => api.list({ ...query, page }), query.page ?? 0, maxItems);
}

async function* byPage<T>(
  fetchPage: (page: number) => Promise<{ data: T[]; hasMore: boolean }>, firstPage: number, maxItems: number,
): AsyncGenerator<T> {
  let yielded = 0;
  for (let page = firstPage; yielded < maxItems; page++) {
    const res = await fetchPage(page);
    for (const item of res.data) {
      if (yielded >= maxItems) return;
      yielded++;
      yield item;
    }
    if (!res.hasMore || res.data.length === 0) return;
  }
}

/** Collects an async iterator into an array. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
