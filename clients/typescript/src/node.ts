import { spawn } from "node:child_process";
import { EntityIndexError } from "./errors.js";
import type * as T from "./types.js";

/** How to start `entityidx pipe`. */
export interface OpenOptions {
  /** The database file (`--db`); else `$ENTITYIDX_DB`, else `entityidx.sqlite` in the working directory. */
  db?: string;
  /** The entityidx binary; default `entityidx` on the PATH. */
  binary?: string;
  /** A fixed clock (`--now`, ISO-8601 with a zone), for reproducible tests. */
  now?: string;
  /** The environment of the child process; default the parent's. */
  env?: Record<string, string | undefined>;
  /** The working directory of the child process. */
  cwd?: string;
}

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: EntityIndexError) => void;
}

/**
 * A client of `entityidx pipe` for Node.js: one child process, one promise per request.
 *
 * Requests are written as soon as they are made (pipelined) and answered in order; `close()` ends the pipe's input
 * and waits for it to exit. When the process goes away, every open request fails with `data.code` `closed`.
 */
export class EntityIndex {
  private readonly child: ReturnType<typeof spawn>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private buffer = "";
  private closed = false;
  private readonly exited: Promise<number | null>;

  private constructor(child: ReturnType<typeof spawn>) {
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once("exit", (code) => {
        this.closed = true;
        this.failAll("the entityidx pipe exited" + (code === null ? "" : ` with status ${code}`));
        resolve(code);
      });
    });
    // A UTF-8 decoder that keeps a character split across two chunks whole.
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk) => this.receive(chunk));
    child.stdin?.on("error", () => this.failAll("the entityidx pipe closed its input"));
  }

  /** Starts `entityidx [--db DB] [--now NOW] pipe`; resolves once the process runs. */
  static open(options: OpenOptions = {}): Promise<EntityIndex> {
    const args: string[] = [];
    if (options.db !== undefined) args.push("--db", options.db);
    if (options.now !== undefined) args.push("--now", options.now);
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
        resolve(new EntityIndex(child));
      });
    });
  }

  /** Sends one request; resolves with its result or rejects with an `EntityIndexError`. */
  call<M extends T.MethodName>(method: M, params?: T.ParamsOf<M>): Promise<T.ResultOf<M>> {
    if (this.closed || !this.child.stdin) {
      return Promise.reject(new EntityIndexError(method, -32000, "the entityidx pipe is closed", { code: "closed" }));
    }
    const id = ++this.nextId;
    const request = { jsonrpc: "2.0", id, method, params: params ?? {} };
    return new Promise<T.ResultOf<M>>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject });
      this.child.stdin?.write(JSON.stringify(request) + "\n");
    });
  }

  /** Adds or replaces records, all or nothing (with `skipInvalid`, the valid ones). */
  ingest(records: T.EntityRecord[], options: { skipInvalid?: boolean } = {}): Promise<T.IngestResult> {
    return this.call("ingest", { records, ...options });
  }
  /** The entities with these ids, in the order asked; missing ids left out. */
  get(params: T.GetParams): Promise<T.EntitiesResult> { return this.call("get", params); }
  /** Full-text search, best first. */
  search(params: T.SearchParams): Promise<T.EntitiesResult> { return this.call("search", params); }
  /** Completions of a word prefix. */
  complete(params: T.CompleteParams): Promise<T.CompleteResult> { return this.call("complete", params); }
  /** Suggested entities. */
  suggest(params: T.SuggestParams = {}): Promise<T.EntitiesResult> { return this.call("suggest", params); }
  /** One page of every entity of a type. */
  all(params: T.AllParams): Promise<T.AllResult> { return this.call("all", params); }
  /** A property query. */
  query(params: T.QueryParams): Promise<T.QueryResult> { return this.call("query", params); }
  /** Related entities. */
  related(params: T.RelatedParams): Promise<T.EntitiesResult> { return this.call("related", params); }
  /** Deletes by type, ids, domains or all (several selectors intersect). */
  delete(params: T.DeleteParams): Promise<T.DeleteResult> { return this.call("delete", params); }
  /** Records an interaction with an entity. */
  donate(params: T.DonateParams): Promise<T.DonateResult> { return this.call("donate", params); }
  /** Starts a batch. */
  batchBegin(): Promise<T.Empty> { return this.call("batch.begin", {}); }
  /** Applies the batch with a new client state. */
  batchEnd(params: T.BatchEndParams): Promise<T.Empty> { return this.call("batch.end", params); }
  /** The client state of the last batch. */
  state(): Promise<T.StateResult> { return this.call("state", {}); }
  /** Asks for entities to be pushed again. */
  reindexRequest(params: T.ReindexRequestParams = {}): Promise<T.ReindexRequestResult> { return this.call("reindex.request", params); }
  /** The open reindex requests. */
  reindexPending(): Promise<T.ReindexPendingResult> { return this.call("reindex.pending", {}); }
  /** Acknowledges a reindex request. */
  reindexAck(params: T.ReindexAckParams): Promise<T.Empty> { return this.call("reindex.ack", params); }
  /** Counts, versions and sizes. */
  stats(): Promise<T.StatsResult> { return this.call("stats", {}); }
  /** Declares property types of an entity type. */
  declare(params: T.DeclareParams): Promise<T.DeclareResult> { return this.call("declare", params); }
  /** The declared property types. */
  declarations(): Promise<T.DeclarationsResult> { return this.call("declarations", {}); }
  /** A Core Spotlight query string (CSSearchQuery). */
  spotlight(params: T.SpotlightParams): Promise<T.SpotlightResult> { return this.call("spotlight", params); }
  /** A user's typed query (CSUserQuery): items and suggestions. */
  userQuery(params: T.UserQueryParams): Promise<T.UserQueryResult> { return this.call("userQuery", params); }
  /** Checks records before they are pushed, or without records the whole index; reads only. */
  lint(params: T.LintParams = {}): Promise<T.LintResult> { return this.call("lint", params); }
  /** A reindex drill: what the records the app pushes back would restore; reads only. */
  drill(params: T.DrillParams): Promise<T.DrillResult> { return this.call("drill", params); }
  /** The OpenRPC document of the pipe. */
  discover(): Promise<T.DiscoverResult> { return this.call("rpc.discover", {}); }

  /** Ends the pipe's input (an open batch is rolled back) and resolves with its exit status once it has exited. */
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
