/** The provider's resources: each one's field table, in the order schema.json and the docs list them. */
import { CONTEXT } from "./context";
import { DOMAIN } from "./domain";
import { ENVIRONMENT } from "./environment";
import { ENVIRONMENT_VARIABLE } from "./environmentVariable";
import { INTEGRATION } from "./integration";
import { LAYOUT } from "./layout";
import { SUBSCRIBER_CREDENTIALS } from "./subscriberCredentials";
import { TOPIC } from "./topic";
import { TRANSLATION } from "./translation";
import { WORKFLOW } from "./workflow";
import type { ResourceTable } from "./fields";

export const RESOURCE_TABLES: readonly ResourceTable[] = [INTEGRATION, WORKFLOW, SUBSCRIBER_CREDENTIALS, ENVIRONMENT, ENVIRONMENT_VARIABLE, LAYOUT, TOPIC, CONTEXT, TRANSLATION, DOMAIN];
