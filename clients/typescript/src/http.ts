import type { Transport } from "./client.js";
import { EntityIndexError } from "./errors.js";
import type * as T from "./types.js";

/** Where `entityidx serve` listens, and what writes need. */
export interface ConnectOptions {
  /** The server's address as `serve` prints it (`http://127.0.0.1:8765`); `/rpc` is added. */
  url: string;
  /** The bearer token `serve --allow-writes` printed at start (or its `ENTITYIDX_TOKEN`); reads need none. */
  token?: string;
  /** The `fetch` to use; default the global one (browsers, Node 18 and later). */
  fetch?: FetchFunction;
}

/** The part of the Fetch API the client uses, declared here so that it compiles without lib "dom". */
export type FetchFunction = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
) => Promise<FetchResponse>;

/** The part of a Fetch API `Response` the client reads. */
export interface FetchResponse {
  readonly status: number;
  text(): Promise<string>;
}

/**
 * `POST /rpc` of `entityidx serve`: one JSON-RPC request per call, the pipe's answers and errors. A batch belongs to
 * this client: `batch.begin` answers its id, which the client sends in the `Entityidx-Batch` header until
 * `batch.end` or `batch.abort`; `close()` rolls an open batch back. An HTTP refusal
 * without a JSON-RPC answer (a foreign origin, a body past the bound) is an `EntityIndexError` with `data.code`
 * `http_error` and the status in `data.status`; a server that cannot be reached, `data.code` `unreachable`.
 */
export class HTTPTransport implements Transport {
  private readonly endpoint: string;
  private readonly headers: Record<string, string>;
  private readonly fetch: FetchFunction;
  private nextId = 0;
  private closed = false;
  /** The id of this client's open batch. */
  private batch: string | undefined;

  constructor(options: ConnectOptions) {
    const found = options.fetch ?? (globalThis as { fetch?: FetchFunction }).fetch;
    if (!found) {
      throw new EntityIndexError("connect", -32602, "connect: no fetch in this environment; pass options.fetch", {
        code: "invalid_params",
      });
    }
    if (typeof options.url !== "string" || !/^https?:\/\//.test(options.url)) {
      throw new EntityIndexError("connect", -32602, `connect: "url" must be an http:// or https:// address, got ${JSON.stringify(options.url)}`, {
        code: "invalid_params",
      });
    }
    this.fetch = found;
    this.endpoint = options.url.replace(/\/+$/, "").replace(/\/rpc$/, "") + "/rpc";
    this.headers = { "Content-Type": "application/json" };
    if (options.token) this.headers["Authorization"] = `Bearer ${options.token}`;
  }

  async request(method: T.MethodName, params: string): Promise<unknown> {
    if (this.closed) throw new EntityIndexError(method, -32000, "the client is closed", { code: "closed" });
    const id = ++this.nextId;
    const body = `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${params}}`;
    const headers = this.batch ? { ...this.headers, "Entityidx-Batch": this.batch } : this.headers;
    let status: number;
    let text: string;
    try {
      const response = await this.fetch.call(globalThis, this.endpoint, { method: "POST", headers, body });
      status = response.status;
      text = await response.text();
    } catch (error) {
      const message = `entityidx serve at ${this.endpoint} cannot be reached: ${(error as Error).message ?? error}`;
      throw new EntityIndexError(method, -32000, message, { code: "unreachable" });
    }
    let answer: { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: T.ErrorData } };
    try {
      answer = JSON.parse(text);
    } catch {
      const message = `entityidx serve answered ${status}: ${text.trim().slice(0, 200)}`;
      throw new EntityIndexError(method, -32000, message, { code: "http_error", status } as T.ErrorData);
    }
    if (method === "batch.end" || method === "batch.abort") {
      // Applied, refused or rolled back, the batch is over; only bad params leave it open.
      const code = answer.error?.data?.code;
      if (code !== "invalid_params" && code !== "limit_exceeded") this.batch = undefined;
    }
    if (answer.error) {
      const { code, message, data } = answer.error;
      throw new EntityIndexError(method, code, message, data);
    }
    if (method === "batch.begin") {
      const batch = (answer.result as { batch?: unknown } | undefined)?.batch;
      if (typeof batch === "string") this.batch = batch;
    }
    return answer.result;
  }

  /** Ends the client; an open batch is rolled back first (nothing of it is applied). */
  async close(): Promise<number | null> {
    if (this.batch && !this.closed) {
      try {
        await this.request("batch.abort", "{}");
      } catch {
        // The server rolls it back after its batch timeout anyway.
      }
    }
    this.batch = undefined;
    this.closed = true;
    return null;
  }
}
