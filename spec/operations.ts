/**
 * Per-operation views of the generated contract (`spec/contract.ts`, from `spec/openapi.json`):
 * the provider's client and the emulator's routes both name an operation by its `operationId`
 * and take its types from here, so neither imports the other. Types only: nothing at run time.
 */
import type { operations } from "./contract";

/** An `operationId` of the service's document. */
export type OperationId = keyof operations;

/** The JSON request body of an operation (`never` for an operation without one). */
export type RequestBody<Op extends OperationId> = operations[Op] extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

/** The JSON body of an operation's response with the given status. */
export type ResponseBody<Op extends OperationId, Status extends number> = operations[Op] extends {
  responses: { [S in Status]: { content: { "application/json": infer B } } };
} ? B : never;
