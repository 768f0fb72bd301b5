import { spawn } from "node:child_process";
import { EntityIndexClient, isoString } from "./client.js";
import type { Transport } from "./client.js";
import { EntityIndexError } from "./errors.js";
import { HTTPTransport } from "./http.js";
import type { ConnectOptions } from "./http.js";
import type * as T from "./types.js";

/** How to start `entityidx pipe`. */
export interface OpenOptions {
  /** The database file (`--db`); else `$ENTITYIDX_DB`, else `entityidx.sqlite` in the working directory. */
  db?: string;
  /** The entityidx binary; default `entityidx` on the PATH. */
  binary?: string;
  /** A fixed clock (`--now`, ISO-8601 with a zone, or a `Date`), for reproducible tests. */
  now?: T.DateTime;
  /** The environment of the child process; default the parent's. */
  env?: Record<string, string | undefined>;
  /** The working directory of the child process. */
  cwd?: string;
}

/**
 * A client of entityidx for Node.js: `open()` starts `entityidx pipe` as a child process, `connect()` talks to
 * `entityidx serve` over `fetch`; one promise per request, the same methods either way.
 *
 * Through the pipe, requests are written as soon as they are made (pipelined) and answered in order; `close()`
 * ends the pipe's input and waits for it to exit. When the process goes away, every open request fails with
 * `data.code` `closed`.
 */
export class EntityIndex extends EntityIndexClient {
  private constructor(transport: Transport) {
    super(transport);
  }

  /** Starts `entityidx [--db DB] [--now NOW] pipe`; resolves once the process runs. */
  static open(options: OpenOptions = {}): Promise<EntityIndex> {
    const args: string[] = [];
    if (options.db !== undefined) args.push("--db", options.db);
    if (options.now !== undefined) {
      try {
        args.push("--now", typeof options.now === "string" ? options.now : isoString(options.now, "open", "now"));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    args.push("pipe");
    const child = spawn(options.binary ?? "entityidx", args, {
      stdio: ["pipe", "pipe", "inherit"],
      env: options.env,
      cwd: options.cwd,
    });
    return new Promise((resolve, reject) => {
      child.once("error", (error) => reject(error));
      child.once("spawn", () => {
        child.on("error", () => undefined);
        resolve(new EntityIndex(new PipeTransport(child)));
      });
    });
  }

  /** A client of `entityidx serve` at `url` (`http://127.0.0.1:8765`), over `fetch`; `token` for writes. */
  static connect(options: ConnectOptions): Promise<EntityIndex> {
    try {
      return Promise.resolve(new EntityIndex(new HTTPTransport(options)));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: EntityIndexError) => void;
}

/** `entityidx pipe` on a child process: one JSON line per request, answers matched by id. */
class PipeTransport implements Transport {
  private readonly child: ReturnType<typeof spawn>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private buffer = "";
  private closed = false;
  private readonly exited: Promise<number | null>;

  constructor(child: ReturnType<typeof spawn>) {
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once("exit", (code) => {
        this.closed = true;
        this.failAll("the entityidx pipe exited" + (code === null ? "" : ` with status ${code}`));
        resolve(code);
      });
    });
    // The stream decodes UTF-8 itself, keeping a character that two reads split whole.
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk) => this.receive(chunk));
    child.stdin?.on("error", () => this.failAll("the entityidx pipe closed its input"));
  }

  request(method: T.MethodName, params: string): Promise<unknown> {
    if (this.closed || !this.child.stdin) {
      return Promise.reject(new EntityIndexError(method, -32000, "the entityidx pipe is closed", { code: "closed" }));
    }
    const id = ++this.nextId;
    const line = `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${params}}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.child.stdin?.write(line + "\n");
    });
  }

  close(): Promise<number | null> {
    if (!this.closed) {
      this.closed = true;
      this.child.stdin?.end();
    }
    return this.exited;
  }

  private receive(text: string): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim() !== "") this.answer(line);
    }
  }

  private answer(line: string): void {
    let response: { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: T.ErrorData } };
    try {
      response = JSON.parse(line);
    } catch {
      this.failAll(`the entityidx pipe wrote a line that is not JSON: ${line.slice(0, 80)}`);
      return;
    }
    const request = typeof response.id === "number" ? this.pending.get(response.id) : undefined;
    if (!request || typeof response.id !== "number") {
      // An error about a message the pipe could not read (id null) belongs to the oldest request.
      const [oldest] = this.pending.keys();
      if (oldest === undefined || !response.error) return;
      response.id = oldest;
      return this.answer(JSON.stringify(response));
    }
    this.pending.delete(response.id);
    if (response.error) {
      const { code, message, data } = response.error;
      request.reject(new EntityIndexError(request.method, code, message, data));
    } else {
      request.resolve(response.result);
    }
  }

  private failAll(message: string): void {
    for (const [id, request] of this.pending) {
      this.pending.delete(id);
      request.reject(new EntityIndexError(request.method, -32000, message, { code: "closed" }));
    }
  }
}
