/** zod schemas of the notification service API, one file per resource. */
export * from "./common";
export * from "./integration";
export * from "./subscriber";
export * from "./workflow";
export * from "./message";
export * from "./event";
export * from "./environment";
export * from "./layout";
export * from "./topic";
export * from "./context";
export * from "./translation";
export * from "./domain";
