/** Message shapes of spec/api.md and the page of `GET /v1/messages`. */
import { z } from "zod";
import { ChannelRead, JsonObject, openEnum } from "./common";
import { Subscriber } from "./subscriber";

/** A block of email content. */
export const EmailBlock = z.looseObject({
  type: openEnum(["button", "text"]),
  content: z.string(),
  url: z.string().optional(),
  styles: z.looseObject({ textAlign: openEnum(["center", "left", "right"]).optional() }).optional(),
});

/** The call to action of an in-app message. */
export const MessageCTA = z.looseObject({
  type: openEnum(["redirect"]).optional(),
  data: z.looseObject({ url: z.string().optional() }).optional(),
  action: z.looseObject({
    status: openEnum(["pending", "done"]).optional(),
    buttons: z.array(z.looseObject({
      type: openEnum(["primary", "secondary"]),
      content: z.string(),
      resultContent: z.string().optional(),
    })).optional(),
    result: z.looseObject({
      payload: JsonObject.optional(),
      type: openEnum(["primary", "secondary"]).optional(),
    }).optional(),
  }).optional(),
});

/** A per-channel message produced by a workflow step. */
export const Message = z.looseObject({
  _id: z.string().optional(),
  _templateId: z.string().nullable().optional(),
  _environmentId: z.string(),
  _messageTemplateId: z.string().nullable().optional(),
  _organizationId: z.string(),
  _notificationId: z.string(),
  _subscriberId: z.string(),
  subscriber: Subscriber.optional(),
  template: z.looseObject({}).optional(),
  templateIdentifier: z.string().optional(),
  createdAt: z.string(),
  deliveredAt: z.array(z.string()).optional(),
  lastSeenDate: z.string().optional(),
  lastReadDate: z.string().optional(),
  content: z.union([z.array(EmailBlock), z.string()]).optional(),
  transactionId: z.string(),
  subject: z.string().optional(),
  channel: ChannelRead,
  read: z.boolean(),
  seen: z.boolean(),
  snoozedUntil: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  directWebhookUrl: z.string().optional(),
  providerId: z.string().optional(),
  deviceTokens: z.array(z.string()).optional(),
  title: z.string().optional(),
  cta: MessageCTA.optional(),
  _feedId: z.string().nullable().optional(),
  status: openEnum(["sent", "error", "warning"]),
  errorId: z.string().optional(),
  errorText: z.string().optional(),
  payload: JsonObject.optional(),
  overrides: JsonObject.optional(),
  contextKeys: z.array(z.string()).optional(),
});
export type Message = z.infer<typeof Message>;
/** A message as getMessages returns it. */
export const MessageResult = Message.meta({ id: "Message", description: "A message sent (or being sent) to a subscriber on one channel." });

/** One page of `GET /v1/messages`. */
export const MessagePage = z.looseObject({
  totalCount: z.number().optional(),
  hasMore: z.boolean(),
  data: z.array(Message),
  pageSize: z.number(),
  page: z.number(),
});
export type MessagePage = z.infer<typeof MessagePage>;
