/**
 * The registry of the emulator's kinds: one line per route module, its `kind` under the kind's
 * name. A new kind is its route module (records, lists, routes and `export const kind`) plus its
 * line here; kinds.ts derives the route table and the store's lists from these lines, and
 * test/unit/emulator/kinds.test.ts fails on a route module without its line.
 */
export { kind as agents } from "./agents";
export { kind as channelConnections } from "./channelConnections";
export { kind as channelEndpoints } from "./channelEndpoints";
export { kind as contexts } from "./contexts";
export { kind as domains } from "./domains";
export { kind as environmentVariables } from "./environmentVariables";
export { kind as environments } from "./environments";
export { kind as events } from "./events";
export { kind as integrations } from "./integrations";
export { kind as layouts } from "./layouts";
export { kind as messages } from "./messages";
export { kind as previews } from "./previews";
export { kind as subscriberPreferences } from "./subscriberPreferences";
export { kind as subscribers } from "./subscribers";
export { kind as topicSubscriptions } from "./topicSubscriptions";
export { kind as topics } from "./topics";
export { kind as translations } from "./translations";
export { kind as workflows } from "./workflows";
