// The shape of a Capacitor plugin for the app's own index: its definitions, as `registerPlugin` takes them, and a
// web implementation that talks to `entityidx serve`. The web layer writes its calls once; in the browser they reach
// serve, on the device the native plugin of the same name (Core Spotlight and App Intents). Capacitor's types are
// declared here in the few lines the plugin needs, so that nothing depends on @capacitor packages.
import type * as T from "./types.js";
import { EntityIndex } from "./web.js";
import type { ConnectOptions } from "./http.js";

/**
 * What the app's native plugin implements and the web implementation answers: the pipe methods the app itself
 * calls, each with one options object, as Capacitor plugin methods take them.
 */
export interface EntityIndexPlugin {
  /** `CSSearchableIndex.indexAppEntities`: adds or replaces records. */
  ingest<P extends T.PropertiesOf<P> = T.Properties>(options: T.IngestParams<P>): Promise<T.IngestResult>;
  /** `deleteAppEntities` / `deleteSearchableItems(withDomainIdentifiers:)`. */
  delete(options: T.DeleteParams): Promise<T.DeleteResult>;
  /** `EntityQuery.entities(for:)`. */
  get<P extends T.PropertiesOf<P> = T.Properties>(options: T.GetParams): Promise<T.GetResult<P>>;
  /** `EntityStringQuery.entities(matching:)`. */
  search<P extends T.PropertiesOf<P> = T.Properties>(options: T.SearchParams): Promise<T.EntitiesResult<P>>;
  /** `suggestedEntities()`. */
  suggest<P extends T.PropertiesOf<P> = T.Properties>(options?: T.SuggestParams): Promise<T.EntitiesResult<P>>;
  /** `CSUserQuery`: items and suggestions. */
  userQuery<P extends T.PropertiesOf<P> = T.Properties>(options: T.UserQueryParams): Promise<T.UserQueryResult<P>>;
  /** `IntentDonationManager.donate`. */
  donate(options: T.DonateParams): Promise<T.DonateResult>;
  /** `beginIndexBatch`. */
  batchBegin(): Promise<T.BatchBeginResult>;
  /** Rolls the open batch back. */
  batchAbort(): Promise<T.Empty>;
  /** `endIndexBatch(expectedClientState:newClientState:)`. */
  batchEnd(options: T.BatchEndParams): Promise<T.Empty>;
  /** `fetchLastClientState`. */
  state(): Promise<T.StateResult>;
  /** What the system asked to reindex and the app has not pushed again. */
  reindexPending(): Promise<T.ReindexPendingResult>;
  /** Marks a reindex request done. */
  reindexAck(options: T.ReindexAckParams): Promise<T.Empty>;
}

/** Capacitor's `PluginImplementations`: per platform, the implementation or a function that loads it. */
export type PluginImplementations<P> = { [platform: string]: (() => P | Promise<P>) | P };

/** The signature of Capacitor's `registerPlugin` (from `@capacitor/core`), as the app passes it in. */
export type RegisterPlugin = <P>(name: string, implementations?: Partial<PluginImplementations<P>>) => P;

/** The plugin's name: the native side registers its implementation under it. */
export const pluginName = "EntityIndex";

/** The web implementation: each plugin method is the same method of `EntityIndex.connect(options)`. */
export class EntityIndexWeb implements EntityIndexPlugin {
  private readonly client: Promise<EntityIndex>;

  constructor(options: ConnectOptions) {
    this.client = EntityIndex.connect(options);
  }

  async ingest<P extends T.PropertiesOf<P> = T.Properties>(options: T.IngestParams<P>): Promise<T.IngestResult> {
    const { records, ...rest } = options;
    return (await this.client).ingest(records as readonly T.EntityRecord[], rest);
  }
  async delete(options: T.DeleteParams): Promise<T.DeleteResult> { return (await this.client).delete(options); }
  async get<P extends T.PropertiesOf<P> = T.Properties>(options: T.GetParams): Promise<T.GetResult<P>> {
    return (await this.client).get<P>(options);
  }
  async search<P extends T.PropertiesOf<P> = T.Properties>(options: T.SearchParams): Promise<T.EntitiesResult<P>> {
    return (await this.client).search<P>(options);
  }
  async suggest<P extends T.PropertiesOf<P> = T.Properties>(options: T.SuggestParams = {}): Promise<T.EntitiesResult<P>> {
    return (await this.client).suggest<P>(options);
  }
  async userQuery<P extends T.PropertiesOf<P> = T.Properties>(options: T.UserQueryParams): Promise<T.UserQueryResult<P>> {
    return (await this.client).userQuery<P>(options);
  }
  async donate(options: T.DonateParams): Promise<T.DonateResult> { return (await this.client).donate(options); }
  async batchBegin(): Promise<T.BatchBeginResult> { return (await this.client).batchBegin(); }
  async batchEnd(options: T.BatchEndParams): Promise<T.Empty> { return (await this.client).batchEnd(options); }
  async batchAbort(): Promise<T.Empty> { return (await this.client).batchAbort(); }
  async state(): Promise<T.StateResult> { return (await this.client).state(); }
  async reindexPending(): Promise<T.ReindexPendingResult> { return (await this.client).reindexPending(); }
  async reindexAck(options: T.ReindexAckParams): Promise<T.Empty> { return (await this.client).reindexAck(options); }
}

/**
 * Registers the plugin with Capacitor's `registerPlugin`: the native implementation on a device, the web one
 * (talking to `entityidx serve` at `options.url`) in a browser.
 *
 * ```ts
 * import { registerPlugin } from "@capacitor/core";
 * export const Entities = registerEntityIndex(registerPlugin, { url: "http://127.0.0.1:8765", token });
 * await Entities.ingest({ records: orders.map(orderRecord) });
 * ```
 */
export function registerEntityIndex(registerPlugin: RegisterPlugin, options: ConnectOptions): EntityIndexPlugin {
  return registerPlugin<EntityIndexPlugin>(pluginName, { web: () => new EntityIndexWeb(options) });
}
