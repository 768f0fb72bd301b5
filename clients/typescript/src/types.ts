// The records the web layer pushes and the params and results of every pipe method (contract §1 and §3).
// test/schema.test.js checks these against schema/record.schema.json and schema/pipe.schema.json field by field.

/** An entity type name: 1–128 characters, `[A-Za-z_][A-Za-z0-9_.-]*`. */
export type TypeName = string;

/** An entity id: a non-empty string (up to 4096 characters), or an integer, which is stored as its decimal string. */
export type EntityId = string | number;

/**
 * A date-time: an ISO-8601 string with a zone (`Z` or `±hh:mm`), or a `Date`, which the client sends as its
 * ISO-8601 form in UTC (`toISOString()`, such as `2026-03-02T09:00:00.000Z`).
 */
export type DateTime = string | Date;

/**
 * A property value: a string, number, boolean or null, or an array of strings or numbers; a `Date` is sent as its
 * ISO-8601 string, which compares as a date.
 */
export type PropertyValue = string | number | boolean | null | Date | Array<string | number>;

/**
 * The properties of a record when no type is given for them: any names, any property values (a property set to
 * `undefined` is left out, as JSON leaves it out).
 */
export type Properties = Record<string, PropertyValue | undefined>;

/**
 * What a properties type must be: every property a property value (optional ones may be left out).
 *
 * Used as the constraint `P extends PropertiesOf<P>`, so that an `interface OrderProps { total: number }`
 * qualifies (an interface has no index signature, so it is not a `Properties`).
 */
export type PropertiesOf<P> = { [K in keyof P]: PropertyValue | undefined };

/** A property value as it comes back in a result: a `Date` sent is the ISO-8601 string it was sent as. */
export type StoredValue<V> = V extends Date ? string : V;

/** The properties of an entity in a result: those of `P`, each `Date` an ISO-8601 string. */
export type StoredProperties<P> = { [K in keyof P]: StoredValue<P[K]> };

/** The identifier of a related entity (`relatedAppEntityIdentifier`). */
export interface EntityIdentifier {
  /** The related entity's type. */
  type: TypeName;
  /** The related entity's id. */
  id: EntityId;
}

/**
 * One entity as the web layer pushes it (contract §1; `schema/record.schema.json`).
 *
 * Identity is the pair (`type`, `id`): ingesting the same pair again replaces the entity. A field not listed here
 * is an error naming that field; `null` for an optional field means the field is absent. `P` is the type of its
 * properties (`EntityRecord<OrderProps>`), by default any properties.
 */
export interface EntityRecord<P extends PropertiesOf<P> = Properties> {
  /** The entity type (`AppEntity` type identifier): 1–128 characters, `[A-Za-z_][A-Za-z0-9_.-]*`. */
  type: TypeName;
  /** The entity id (`EntityIdentifier`): a string of 1–4096 characters, or an integer (it comes back as its decimal string). */
  id: EntityId;
  /** `DisplayRepresentation.title`: a non-empty string. */
  title: string;
  /** `DisplayRepresentation.subtitle`. */
  subtitle?: string | null;
  /** `DisplayRepresentation.synonyms`: other names the entity is found by. */
  synonyms?: string[] | null;
  /** `CSSearchableItemAttributeSet.keywords`. */
  keywords?: string[] | null;
  /** `contentDescription`: longer text, searched at a lower weight. */
  description?: string | null;
  /** `@Property` values, by name: used by property queries and sorting; strings are searchable at low weight. */
  properties?: P | null;
  /** `domainIdentifier`, dot-separated: deleting domain `a` deletes `a` and `a.*`, not `ab`. */
  domain?: string | null;
  /** Related entity identifiers (`relatedAppEntityIdentifier`), queryable in both directions. */
  related?: EntityIdentifier[] | null;
  /** Query-independent importance from 0 to 100, higher is better. */
  rankingHint?: number | null;
  /** Indexing priority (`indexAppEntities(_:priority:)`), an integer; feeds suggestions. */
  priority?: number | null;
  /** Last use, ISO-8601 with a zone (`Z` or `±hh:mm`) or a `Date`: feeds suggestions and ranking. */
  lastUsedAt?: DateTime | null;
  /** Expiry, ISO-8601 with a zone or a `Date`; when absent, one month after the record was last ingested. */
  expiresAt?: DateTime | null;
  /** `hideInSpotlight`: left out of `search` and `suggest`, still returned by `get`, `all`, `query` and `related`. */
  hidden?: boolean | null;
  /** A URL, passed through untouched. */
  url?: string | null;
  /** An image reference, passed through untouched. */
  image?: string | null;
}

/** A matched span of a field, with `highlight: true`. */
export interface Highlight {
  field: string;
  start: number;
  end: number;
  text: string;
}

/**
 * An entity in a result: the record as ingested (its id as a string, its dates as strings), plus what the method
 * adds. `P` is the type of its properties as pushed (`Entity<OrderProps>`); it is not checked against what comes
 * back, as in any JSON client.
 */
export interface Entity<P extends PropertiesOf<P> = Properties>
  extends Omit<EntityRecord<P>, "id" | "properties" | "lastUsedAt" | "expiresAt"> {
  /** The id, always a string (an integer id comes back as its decimal string). */
  id: string;
  /** The properties as ingested; a `Date` that was pushed is its ISO-8601 string. */
  properties?: StoredProperties<P> | null;
  /** Last use, as ingested (ISO-8601). */
  lastUsedAt?: string | null;
  /** Expiry, as ingested (ISO-8601). */
  expiresAt?: string | null;
  /** The relevance score of a search (higher is better). */
  score?: number;
  /** The engagement a suggestion was ranked by. */
  engagement?: number;
  /** The ranking tiers of a search, with `explain: true`. */
  explain?: Record<string, unknown>;
  /** The matched spans, with `highlight: true`. */
  highlights?: Highlight[];
  /** How a search result matched beyond the words as typed; absent when it matched as typed. */
  matchedBy?: ("joined" | "phone" | "reading" | "split" | "stem" | "synonym" | "transliteration" | "typo")[];
}

/** Types for a union: one type, or several (`["order", "product"]`) answered as if the index held only them. */
export type TypeNames = TypeName | TypeName[];

/** A field `fields` can keep: a record field, what a method adds, or one property as `properties.NAME`. */
export type Field =
  | "type" | "id" | "title" | "subtitle" | "synonyms" | "keywords" | "description" | "properties" | "domain"
  | "related" | "rankingHint" | "priority" | "lastUsedAt" | "expiresAt" | "hidden" | "url" | "image"
  | "score" | "engagement" | "explain" | "highlights" | "matchedBy"
  | `properties.${string}`;

/**
 * An entity of a request with `fields`: its type and id, the fields asked for that it has (a `properties.NAME`
 * keeps that property alone in `properties`), and what the method adds.
 */
export interface SelectedEntity<P extends PropertiesOf<P> = Properties>
  extends Partial<Omit<Entity<P>, "type" | "id" | "properties">> {
  type: TypeName;
  id: string;
  /** The properties asked for (`properties.NAME`), or all of them (`properties`). */
  properties?: Partial<StoredProperties<P>> | null;
}

/** The params of a request with `fields`. */
export type WithFields<Params> = Params & { fields: Field[] };
/** A result with each entity replaced by its selected form. */
export type Selected<R, P extends PropertiesOf<P> = Properties> = {
  [K in keyof R]: R[K] extends Entity<P>[] ? SelectedEntity<P>[] : R[K];
};

/** A property filter of `query` and `search`. */
export interface Filter {
  property: string;
  op: "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "between" | "hasPrefix" | "hasSuffix" | "contains" | "notContains";
  /** A string, number, boolean or `Date` (sent as ISO-8601); an array of two for `between`. */
  value: string | number | boolean | Date | Array<string | number | Date>;
}

/** One sort key of `query`. */
export interface SortKey {
  property: string;
  order?: "asc" | "desc";
}

/** A problem with one record of an ingest, located in the input. */
export interface RecordProblem {
  /** The record's position in the input, from 1. */
  position: number;
  /** The line of NDJSON input, when read from lines. */
  line?: number;
  /** `type/id` of the record, when it could be read. */
  entity?: string;
  /** The field at fault. */
  field?: string;
  problem: string;
}

/** A parameter-less request. */
export type Empty = Record<string, never>;

export interface IngestParams<P extends PropertiesOf<P> = Properties> {
  records: EntityRecord<P>[];
  /** Commit the valid records and list the invalid ones instead of rejecting the call. */
  skipInvalid?: boolean;
}
export interface IngestResult {
  inserted: number;
  updated: number;
  unchanged: number;
  /** With `skipInvalid`: how many records were skipped. */
  skipped?: number;
  /** With `skipInvalid`: the problems of the skipped records. */
  problems?: RecordProblem[];
}

export interface GetParams {
  type: TypeName;
  ids: EntityId[];
  /** Only these fields of each entity (type and id always); left out: whole entities. */
  fields?: Field[];
}
/**
 * How many of a search's words must match. `all`: every one. `frequency` or `last`: every one first; when fewer
 * entities than the page needs match them all, further passes leave words out one at a time (`frequency`: the
 * words no entity holds, then the most frequent, ties the later first; `last`: from the end), never the only one,
 * and what each pass finds ranks after what the passes before found (`explain`'s `words`: `"2/3"`).
 */
export type Matching = "all" | "frequency" | "last";
/**
 * Facets to count among every match, not just the page: property names, `type` (the entity type) or `domain`; at
 * most 8. A name that is neither, nor a property of the entities asked about, is an `invalid_params` error naming it.
 */
export type FacetNames = string[];
/** One value of a facet and how many counted matches hold it. */
export interface FacetValue {
  /** A string as the first entity holding it wrote it (grouped as a filter `eq` compares), a number, a boolean, a date's string. */
  value: string | number | boolean;
  count: number;
}
/** A facet's counts: at most 20 values, most held first, then by value. */
export interface Facet {
  values: FacetValue[];
  /** How many other values the counted matches hold, left out of `values`. */
  otherValues: number;
  /** How many counted matches hold no value (no such property, null, an empty array, no domain). */
  missing: number;
}
/** What a result with `facets` adds: each facet by name, and how many matches were counted. */
export interface FacetsResult {
  facets?: Record<string, Facet>;
  /** Every match, up to 10,000. */
  facetsCounted?: number;
  /** Present when more than 10,000 entities match: each count is then a lower bound. */
  facetsAreLowerBounds?: true;
}
export interface SearchParams {
  query: string;
  /** One type, or several ranked together. */
  type?: TypeNames;
  /** Default 20, at most 10,000. */
  limit?: number;
  filters?: Filter[];
  explain?: boolean;
  highlight?: boolean;
  /** The `nextCursor` of the previous page of the same search (same query, type, filters and matching). */
  cursor?: string;
  /** Only these fields of each entity (type and id always); left out: whole entities. */
  fields?: Field[];
  /** Default `all`: every word must match. */
  matching?: Matching;
  facets?: FacetNames;
}
export interface SearchResult<P extends PropertiesOf<P> = Properties> extends FacetsResult {
  entities: Entity<P>[];
  /**
   * How many entities match (with `matching` `frequency` or `last`, how many the pages return in all, fewer words
   * included): exact up to 100, beyond it a lower bound (`totalIsLowerBound`).
   */
  total: number;
  /** Present when more than 100 entities match. */
  totalIsLowerBound?: true;
  /** The cursor of the next page; absent on the last page (and at 10,000 results). */
  nextCursor?: string;
}
export interface CompleteParams {
  prefix: string;
  limit?: number;
}
export interface Completion {
  term: string;
  documents: number;
}
export interface CompleteResult {
  completions: Completion[];
}
export interface SuggestParams {
  type?: TypeNames;
  /** Default 10. */
  limit?: number;
  /** Only these fields of each entity (type and id always); left out: whole entities. */
  fields?: Field[];
}
export interface AllParams {
  /** One type, or several listed type by type (the cursor is then `type/id`). */
  type: TypeNames;
  /** Default 100 a page. */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  /** Only these fields of each entity (type and id always); left out: whole entities. */
  fields?: Field[];
  facets?: FacetNames;
}
export interface AllResult<P extends PropertiesOf<P> = Properties> extends FacetsResult {
  entities: Entity<P>[];
  /** Present when there are more entities. */
  nextCursor?: string;
}
export interface QueryParams {
  /** One type, or several (their union). */
  type: TypeNames;
  filters?: Filter[];
  mode?: "and" | "or";
  sort?: SortKey[];
  /** Every match unless given (at most 10000 a page). */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  /** Only these fields of each entity (type and id always); left out: whole entities. */
  fields?: Field[];
  facets?: FacetNames;
}
export interface QueryResult<P extends PropertiesOf<P> = Properties> extends FacetsResult {
  entities: Entity<P>[];
  /** Present when the result was cut at the per-request maximum (no `limit`), or a `cursor` was given and more follow. */
  nextCursor?: string;
}
export interface RelatedParams {
  type: TypeName;
  id: EntityId;
  /** Default `out`. */
  direction?: "out" | "in" | "both";
  /** Only these fields of each entity (type and id always); left out: whole entities. */
  fields?: Field[];
}
export interface EntitiesResult<P extends PropertiesOf<P> = Properties> {
  entities: Entity<P>[];
}
export interface GetResult<P extends PropertiesOf<P> = Properties> {
  entities: Entity<P>[];
  /** The ids asked that have no entity (never pushed, deleted or expired), in asked order; present only when there are any. */
  missing?: Array<{ type: string; id: string }>;
}
export interface RelatedResult<P extends PropertiesOf<P> = Properties> {
  entities: Entity<P>[];
  /** out and both: the listed entities the index does not hold, in listed order; present only when there are any. */
  missing?: Array<{ type: string; id: string }>;
}
export interface DeleteParams {
  /** One type, or several (their union). */
  type?: TypeNames;
  ids?: EntityId[];
  /** A domain deletes itself and its subdomains. */
  domains?: string[];
  all?: boolean;
  /** Delete nothing: answer `wouldDelete` and the first 100 `keys` instead. */
  dryRun?: boolean;
}
export interface DeleteResult {
  /** 0 for a dry run. */
  deleted: number;
  /** Present (true) for a dry run. */
  dryRun?: true;
  /** A dry run: how many entities the same request would delete. */
  wouldDelete?: number;
  /** A dry run: the first (at most 100) of them. */
  keys?: Array<{ type: string; id: string }>;
}
export interface DonateParams {
  type: TypeName;
  id: EntityId;
}
export interface DonateResult {
  /** False when the entity does not exist. */
  counted?: boolean;
}
/** `batch.begin`'s result: over `serve`, the batch's id (the HTTP client sends it with the batch's requests). */
export interface BatchBeginResult {
  batch?: string;
}

export interface BatchEndParams {
  /** The new client state, at most 250 bytes. */
  clientState: string;
  /** The state the batch expects to replace; a mismatch applies nothing (`mismatched_client_state`). */
  expectedClientState?: string | null;
}
export interface StateResult {
  clientState: string | null;
}
export interface ReindexRequestParams {
  type?: TypeName;
  ids?: EntityId[];
}
export interface ReindexRequestResult {
  requestId: number;
}
export interface PendingReindex {
  requestId: number;
  type?: string;
  ids?: string[];
  createdAt: string;
  /** Ids not re-pushed since the request; `{type, id}` pairs for a request without a type. */
  outstanding: Array<string | { type: string; id: string }>;
}
export interface ReindexPendingResult {
  requests: PendingReindex[];
}
export interface ReindexAckParams {
  requestId: number;
}
export interface TypeCounts {
  entities: number;
  hidden: number;
  expired: number;
  expiringSoon: number;
}
export interface StatsResult {
  entities: number;
  hidden: number;
  expired: number;
  expiringSoon: number;
  types: Record<string, TypeCounts>;
  reindexRequests: number;
  donations?: number;
  clientState?: string | null;
  databaseBytes: number;
  path?: string;
  now?: string;
  schemaVersion: number;
  textVersion: number;
  sqliteVersion: string;
  icuVersion: string;
}
export interface PropertyDeclaration {
  name: string;
  kind: "string" | "number" | "integer" | "boolean" | "date" | "strings";
  sortable?: boolean;
  indexingKey?: string;
}
/** How a type's text matches other forms of its words: `english` (Porter2 stems), `none` (as written, the default). */
export type Stemming = "none" | "english";
/**
 * Whether a type's words of other scripts (Cyrillic, Greek, Arabic, Hebrew…; not Han, kana or Hangul) also match by
 * their Latin transliteration, and Japanese by its readings: `latin` (`smirnov` finds `Смирнов`, `matcha` finds
 * `抹茶ラテ`), `none` (as written, the default).
 */
export type Transliteration = "none" | "latin";
export interface DeclareParams {
  type: TypeName;
  /** Required unless `stemming` or `transliterate` is given. */
  properties?: PropertyDeclaration[];
  /** Left out: the type's stemming stays as it was. */
  stemming?: Stemming;
  /** Left out: the type's transliteration stays as it was. */
  transliterate?: Transliteration;
}
export interface DeclareResult {
  declared: number;
}
export interface DeclarationsResult {
  types: Record<string, PropertyDeclaration[]>;
  /** The types whose text is stemmed, and how (absent when none is). */
  stemming?: Record<string, Stemming>;
  /** The types whose words of other scripts also match in Latin letters (absent when none is). */
  transliterate?: Record<string, Transliteration>;
}
/** The OpenRPC document (`schema/openrpc.json`). */
export interface DiscoverResult {
  openrpc: string;
  info: Record<string, unknown>;
  methods: Array<Record<string, unknown>>;
}

export interface SpotlightParams {
  /** A Core Spotlight query string (CSSearchQuery), such as `title == "*widget*"c || price < 10`. */
  query: string;
  type?: TypeNames;
  limit?: number;
  /** Return each entity with type, id and only these attributes (under the names asked for). */
  fetchAttributes?: string[];
  /** Only these record fields of each entity (type and id always); not with fetchAttributes. */
  fields?: Field[];
}
/** An entity of a spotlight result: whole, or with fetchAttributes its type, id and the attributes asked for. */
export type SpotlightEntity<P extends PropertiesOf<P> = Properties> =
  | Entity<P>
  | { type: TypeName; id: string; [attribute: string]: unknown };
export interface SpotlightResult<P extends PropertiesOf<P> = Properties> {
  entities: SpotlightEntity<P>[];
}
export interface UserQueryParams {
  /** The text as the user typed it (CSUserQuery). */
  query: string;
  maxItems?: number;
  /** At most 100. */
  maxSuggestions?: number;
  /** Only these fields of each item (type and id always); left out: whole entities. */
  fields?: Field[];
  /** How many of the words the items must match; default `frequency`. */
  matching?: Matching;
}
export interface UserQuerySuggestion {
  /** A completion of the whole typed string. */
  text: string;
  /** The typed parts within `text`, as UTF-16 offsets. */
  matchedRanges: Array<{ start: number; end: number }>;
}
export interface UserQueryResult<P extends PropertiesOf<P> = Properties> {
  /** With `fields`, each item is a `SelectedEntity`. */
  items: Entity<P>[];
  suggestions: UserQuerySuggestion[];
}

export type LintCode =
  | "invalid-record" | "duplicate-key" | "id-changed" | "type-renamed" | "will-expire" | "duplicate-content"
  | "too-large" | "weak-display" | "unreachable" | "broken-link" | "domain-overlap" | "mixed-kinds";
export interface LintParams<P extends PropertiesOf<P> = Properties> {
  /** The records about to be pushed; without them the whole index is checked. */
  records?: EntityRecord<P>[];
  /** will-expire reports entities that expire within this many days (default 7). */
  within?: number;
  /** List at most this many findings (the first in the report's order); the others are counted in `unlisted`. */
  limit?: number;
}
export interface LintFinding {
  code: LintCode;
  severity: "error" | "warning";
  /** The record of the input (by position and line) or the indexed entity (`indexed: true`) it is about. */
  record: { position?: number; line?: number; indexed?: true; type?: string; id?: string };
  message: string;
  /** The field of the record at fault, when it is one (`title`; for broken-link `related[i]`, 0-based). */
  field?: string;
  /** The other entities involved (a duplicate, an overlap, the missing target of a broken link). */
  others?: Array<{ type: string; id: string }>;
  /** duplicate-key: the first record of the input with the same type and id. */
  first?: { position: number; line?: number; type?: string; id?: string };
}
export interface LintResult {
  findings: LintFinding[];
  /** The number of findings of each code. */
  counts: Partial<Record<LintCode, number>>;
  errors: number;
  warnings: number;
  records: number;
  indexed: number;
  withinDays: number;
  /** Findings counted but not listed, by code (past the first 1000 of invalid-record and duplicate-key, and past
   * the request's `limit`). */
  unlisted?: Partial<Record<LintCode, number>>;
}
export interface DrillParams<P extends PropertiesOf<P> = Properties> {
  /** The records the app's reindex pushes back. */
  records: EntityRecord<P>[];
  /** Only entities of this type, on both sides. */
  type?: TypeName;
}
export interface DrillEntry {
  type: string;
  id: string;
  position: number;
  line?: number;
}
export interface DrillChange extends DrillEntry {
  /** The fields that differ. */
  fields: string[];
}
export interface DrillResult {
  indexed: number;
  pushed: number;
  restored: number;
  /** Indexed entities the reindex did not push back. */
  missing: Array<{ type: string; id: string }>;
  /** Pushed back with different fields. */
  changed: DrillChange[];
  /** Pushed back but not indexed before. */
  new: DrillEntry[];
  /** Pushed back already expired. */
  expired: DrillEntry[];
  /** Whether the reindex restored everything unchanged. */
  complete: boolean;
}

/** An entity as `"type/id"` (`"order/1042"`); for `complete`, a word. */
export type ExpectedKey = string;
/** What a case's answer must hold; each part is checked on its own (at least one). */
export interface Expectation {
  /** The first results exactly, in this order. */
  top?: ExpectedKey[];
  /** Each is among the results the request returns (within its limit). */
  contains?: ExpectedKey[];
  /** None is among the results. */
  excludes?: ExpectedKey[];
  /** Each at this 1-based rank or better: `{"order/1042": 3}`. */
  rankAtMost?: Record<ExpectedKey, number>;
  /** The number of results returned. */
  count?: number;
  /** The search's total (search only). */
  total?: number;
  /** `true`: no results; `false`: at least one. */
  empty?: boolean;
}
/**
 * One case of an expectations file (`schema/expectations.schema.json`): a name, exactly one read request (its
 * params under the method's name) and what its answer must hold.
 */
export interface ExpectationCase {
  name: string;
  /** The clock of this case (else the run's `now`, else the request's clock). */
  now?: string | Date;
  search?: SearchParams;
  suggest?: SuggestParams;
  spotlight?: SpotlightParams;
  userQuery?: UserQueryParams;
  query?: QueryParams;
  all?: AllParams;
  get?: GetParams;
  related?: RelatedParams;
  complete?: CompleteParams;
  expect: Expectation;
}
export interface TestParams {
  cases: ExpectationCase[];
  /** The clock of a case without its own `now`; left out: the request's clock. */
  now?: string | Date;
}
/** The error a case's request ended with: the pipe's error object. */
export interface CaseError {
  code: number;
  message: string;
  data: { code: string; records?: RecordProblem[]; character?: number };
}
export interface CaseReport {
  /** The case's 0-based position in `cases`. */
  index: number;
  name: string;
  method: string;
  /** `wrong`: the engine refused the request (invalid params or query). */
  status: "passed" | "failed" | "wrong";
  /** The results in order, as `"type/id"` (words for `complete`). */
  got: string[];
  /** The search's total, when the result has one. */
  total?: number;
  /** Each expectation that did not hold (`request` when the request failed). */
  failures: Array<{ expectation: string; message: string }>;
  /** For a failed search or user query: each result's ranking tiers (as search's `explain`), by `"type/id"`. */
  tiers?: Record<string, Record<string, string>>;
  error?: CaseError;
  seconds: number;
}
/** The report of `entityidx test --format json`, its cases without file and line. */
export interface TestResult {
  passed: number;
  failed: number;
  wrong: number;
  cases: CaseReport[];
}

/** Every pipe method: its params and its result. */
export interface Methods {
  ingest: { params: IngestParams; result: IngestResult };
  get: { params: GetParams; result: GetResult };
  search: { params: SearchParams; result: SearchResult };
  complete: { params: CompleteParams; result: CompleteResult };
  suggest: { params: SuggestParams; result: EntitiesResult };
  all: { params: AllParams; result: AllResult };
  query: { params: QueryParams; result: QueryResult };
  related: { params: RelatedParams; result: RelatedResult };
  delete: { params: DeleteParams; result: DeleteResult };
  donate: { params: DonateParams; result: DonateResult };
  "batch.begin": { params: Empty; result: BatchBeginResult };
  "batch.end": { params: BatchEndParams; result: Empty };
  "batch.abort": { params: Empty; result: Empty };
  state: { params: Empty; result: StateResult };
  "reindex.request": { params: ReindexRequestParams; result: ReindexRequestResult };
  "reindex.pending": { params: Empty; result: ReindexPendingResult };
  "reindex.ack": { params: ReindexAckParams; result: Empty };
  stats: { params: Empty; result: StatsResult };
  declare: { params: DeclareParams; result: DeclareResult };
  declarations: { params: Empty; result: DeclarationsResult };
  spotlight: { params: SpotlightParams; result: SpotlightResult };
  userQuery: { params: UserQueryParams; result: UserQueryResult };
  lint: { params: LintParams; result: LintResult };
  drill: { params: DrillParams; result: DrillResult };
  test: { params: TestParams; result: TestResult };
  "rpc.discover": { params: Empty; result: DiscoverResult };
}

export type MethodName = keyof Methods;
export type ParamsOf<M extends MethodName> = Methods[M]["params"];
export type ResultOf<M extends MethodName> = Methods[M]["result"];

/** The `data` of an error: a stable code, and for bad records each record's problems. */
export interface ErrorData {
  /** A stable string: `invalid_record`, `invalid_params`, `not_found`, `mismatched_client_state`, … */
  code: string;
  records?: RecordProblem[];
  /** The HTTP status of an answer of `entityidx serve` that was not JSON-RPC (`code` `http_error`). */
  status?: number;
}
