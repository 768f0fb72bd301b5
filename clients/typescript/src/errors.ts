import type { ErrorData } from "./types.js";

/**
 * An error answer of the pipe: the JSON-RPC `code` (-32602 invalid params or records, -32000 the rest, …) and its
 * `data`, whose `code` is a stable string (`invalid_record`, `not_found`, `mismatched_client_state`, …).
 */
export class EntityIndexError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The error's data: a stable `code` string, and `records` for bad records. */
  readonly data: ErrorData;
  /** The method that failed. */
  readonly method: string;

  constructor(method: string, code: number, message: string, data?: ErrorData) {
    super(message);
    this.name = "EntityIndexError";
    this.method = method;
    this.code = code;
    this.data = data ?? { code: "unknown" };
  }
}
