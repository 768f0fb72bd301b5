import { EntityIndexError } from "./errors.js";
import type * as T from "./types.js";

/**
 * How a client reaches entityidx: a request's method and its params, already encoded as JSON, in; its result out,
 * or an `EntityIndexError`.
 */
export interface Transport {
  request(method: T.MethodName, params: string): Promise<unknown>;
  /** Ends the transport; resolves with the pipe's exit status, or null when there is no process. */
  close(): Promise<number | null>;
}

/**
 * The typed API of entityidx, one method per pipe method, over any transport: the Node client's pipe
 * (`EntityIndex.open`) or `entityidx serve` over `fetch` (`EntityIndex.connect`), in Node or in a browser.
 */
export class EntityIndexClient {
  protected readonly transport: Transport;

  protected constructor(transport: Transport) {
    this.transport = transport;
  }

  /**
   * Sends one request; resolves with its result or rejects with an `EntityIndexError`.
   *
   * A `Date` anywhere in the params is sent as its ISO-8601 string; an invalid `Date` rejects the call before it is
   * sent (JSON would turn it into null, which for a record's field means absent).
   */
  call<M extends T.MethodName>(method: M, params?: T.ParamsOf<M>): Promise<T.ResultOf<M>> {
    return this.send(method, params);
  }

  /**
   * Adds or replaces records, all or nothing (with `skipInvalid`, the valid ones). `P` is the type of their
   * properties (`ingest<OrderProps>(…)`; records of several types: `ingest<OrderProps | CustomerProps>(…)`),
   * by default inferred from the records.
   */
  ingest<P extends T.PropertiesOf<P> = T.Properties>(
    records: readonly T.EntityRecord<P>[],
    options?: { skipInvalid?: boolean },
  ): Promise<T.IngestResult>;
  /** Adds or replaces records whose properties differ from record to record. */
  ingest(records: readonly T.EntityRecord[], options?: { skipInvalid?: boolean }): Promise<T.IngestResult>;
  ingest(records: readonly T.EntityRecord[], options: { skipInvalid?: boolean } = {}): Promise<T.IngestResult> {
    return this.send("ingest", { records, ...options });
  }
  /** The entities with these ids, in the order asked; missing ids left out. `P`: the type of their properties. */
  get<P extends T.PropertiesOf<P> = T.Properties>(params: T.WithFields<T.GetParams>): Promise<T.Selected<T.GetResult<P>, P>>;
  get<P extends T.PropertiesOf<P> = T.Properties>(params: T.GetParams): Promise<T.GetResult<P>>;
  get<P extends T.PropertiesOf<P> = T.Properties>(params: T.GetParams): Promise<T.GetResult<P> | T.Selected<T.GetResult<P>, P>> {
    return this.send("get", params);
  }
  /** Full-text search, best first. `P`: the type of the entities' properties (`search<OrderProps>(…)`). */
  search<P extends T.PropertiesOf<P> = T.Properties>(params: T.WithFields<T.SearchParams>): Promise<T.Selected<T.SearchResult<P>, P>>;
  search<P extends T.PropertiesOf<P> = T.Properties>(params: T.SearchParams): Promise<T.SearchResult<P>>;
  search<P extends T.PropertiesOf<P> = T.Properties>(params: T.SearchParams): Promise<T.SearchResult<P> | T.Selected<T.SearchResult<P>, P>> {
    return this.send("search", params);
  }
  /** Completions of a word prefix. */
  complete(params: T.CompleteParams): Promise<T.CompleteResult> { return this.call("complete", params); }
  /** Suggested entities. `P`: the type of their properties. */
  suggest<P extends T.PropertiesOf<P> = T.Properties>(params: T.WithFields<T.SuggestParams>): Promise<T.Selected<T.EntitiesResult<P>, P>>;
  suggest<P extends T.PropertiesOf<P> = T.Properties>(params?: T.SuggestParams): Promise<T.EntitiesResult<P>>;
  suggest<P extends T.PropertiesOf<P> = T.Properties>(params: T.SuggestParams = {}): Promise<T.EntitiesResult<P> | T.Selected<T.EntitiesResult<P>, P>> {
    return this.send("suggest", params);
  }
  /** One page of every entity of a type. `P`: the type of their properties. */
  all<P extends T.PropertiesOf<P> = T.Properties>(params: T.WithFields<T.AllParams>): Promise<T.Selected<T.AllResult<P>, P>>;
  all<P extends T.PropertiesOf<P> = T.Properties>(params: T.AllParams): Promise<T.AllResult<P>>;
  all<P extends T.PropertiesOf<P> = T.Properties>(params: T.AllParams): Promise<T.AllResult<P> | T.Selected<T.AllResult<P>, P>> {
    return this.send("all", params);
  }
  /** A property query. `P`: the type of the entities' properties. */
  query<P extends T.PropertiesOf<P> = T.Properties>(params: T.WithFields<T.QueryParams>): Promise<T.Selected<T.QueryResult<P>, P>>;
  query<P extends T.PropertiesOf<P> = T.Properties>(params: T.QueryParams): Promise<T.QueryResult<P>>;
  query<P extends T.PropertiesOf<P> = T.Properties>(params: T.QueryParams): Promise<T.QueryResult<P> | T.Selected<T.QueryResult<P>, P>> {
    return this.send("query", params);
  }
  /** Related entities. `P`: the type of their properties. */
  related<P extends T.PropertiesOf<P> = T.Properties>(params: T.WithFields<T.RelatedParams>): Promise<T.Selected<T.RelatedResult<P>, P>>;
  related<P extends T.PropertiesOf<P> = T.Properties>(params: T.RelatedParams): Promise<T.RelatedResult<P>>;
  related<P extends T.PropertiesOf<P> = T.Properties>(params: T.RelatedParams): Promise<T.RelatedResult<P> | T.Selected<T.RelatedResult<P>, P>> {
    return this.send("related", params);
  }
  /** Deletes by type, ids, domains or all (several selectors intersect). */
  delete(params: T.DeleteParams): Promise<T.DeleteResult> { return this.call("delete", params); }
  /** Records an interaction with an entity. */
  donate(params: T.DonateParams): Promise<T.DonateResult> { return this.call("donate", params); }
  /** Starts a batch. */
  batchBegin(): Promise<T.BatchBeginResult> { return this.call("batch.begin", {}); }
  /** Applies the batch with a new client state. */
  batchEnd(params: T.BatchEndParams): Promise<T.Empty> { return this.call("batch.end", params); }
  /** Rolls the open batch back: nothing of it is applied. */
  batchAbort(): Promise<T.Empty> { return this.call("batch.abort", {}); }
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
  /** A Core Spotlight query string (CSSearchQuery). `P`: the type of the entities' properties. */
  spotlight<P extends T.PropertiesOf<P> = T.Properties>(params: T.SpotlightParams): Promise<T.SpotlightResult<P>> {
    return this.send("spotlight", params);
  }
  /** A user's typed query (CSUserQuery): items and suggestions. `P`: the type of the items' properties. */
  userQuery<P extends T.PropertiesOf<P> = T.Properties>(params: T.WithFields<T.UserQueryParams>): Promise<T.Selected<T.UserQueryResult<P>, P>>;
  userQuery<P extends T.PropertiesOf<P> = T.Properties>(params: T.UserQueryParams): Promise<T.UserQueryResult<P>>;
  userQuery<P extends T.PropertiesOf<P> = T.Properties>(params: T.UserQueryParams): Promise<T.UserQueryResult<P> | T.Selected<T.UserQueryResult<P>, P>> {
    return this.send("userQuery", params);
  }
  /** Checks records before they are pushed, or without records the whole index; reads only. */
  lint<P extends T.PropertiesOf<P> = T.Properties>(params: T.LintParams<P> = {}): Promise<T.LintResult> {
    return this.send("lint", params);
  }
  /** A reindex drill: what the records the app pushes back would restore; reads only. */
  drill<P extends T.PropertiesOf<P> = T.Properties>(params: T.DrillParams<P>): Promise<T.DrillResult> {
    return this.send("drill", params);
  }
  /**
   * Checks expectations (what searches must find) against the index, as `entityidx test` checks an expectations
   * file; reads only. A case wrong as written rejects the call (`invalid_params`, naming each case and field); a
   * case that does not hold is `failed` in the report.
   */
  test(cases: readonly T.ExpectationCase[], options: { now?: string | Date } = {}): Promise<T.TestResult> {
    return this.send("test", { cases, ...options });
  }
  /** The OpenRPC document of the pipe. */
  discover(): Promise<T.DiscoverResult> { return this.call("rpc.discover", {}); }

  /**
   * Ends the client: the pipe's input (an open batch is rolled back) with the exit status once it has exited; over
   * HTTP, later calls fail with `data.code` `closed` and it resolves with null.
   */
  close(): Promise<number | null> {
    return this.transport.close();
  }

  /** Sends one request and resolves with its result, typed by the caller. */
  protected send<R>(method: T.MethodName, params: unknown): Promise<R> {
    let text: string;
    try {
      text = JSON.stringify(params ?? {}, withDates(method));
    } catch (error) {
      return Promise.reject(error);
    }
    return this.transport.request(method, text) as Promise<R>;
  }
}

/** The ISO-8601 form of a date (`toISOString()`); an invalid `Date` is an invalid-params error naming its key. */
export function isoString(date: Date, method: string, key: string): string {
  if (Number.isNaN(date.getTime())) {
    const where = /^\d+$/.test(key) ? `element ${key}` : `"${key}"`;
    const message = `${method}: ${where} is an invalid Date; give a valid Date or an ISO-8601 string with a zone`;
    throw new EntityIndexError(method, -32602, message, { code: "invalid_params" });
  }
  return date.toISOString();
}

/**
 * A `JSON.stringify` replacer that writes each `Date` as its ISO-8601 string and refuses an invalid one.
 *
 * `Date.prototype.toJSON` has already run when a replacer sees the value, so the holder's own value is checked.
 */
function withDates(method: string): (this: unknown, key: string, value: unknown) => unknown {
  return function (this: unknown, key: string, value: unknown): unknown {
    const raw = (this as Record<string, unknown>)[key];
    return raw instanceof Date ? isoString(raw, method, key) : value;
  };
}
