import { EntityIndexClient } from "./client.js";
import type { Transport } from "./client.js";
import { HTTPTransport } from "./http.js";
import type { ConnectOptions } from "./http.js";

/**
 * A client of `entityidx serve` for the browser (and any code with `fetch`): the same methods and types as the
 * Node client, over `POST /rpc`. Nothing of Node is imported, so a web bundle can hold it.
 */
export class EntityIndex extends EntityIndexClient {
  private constructor(transport: Transport) {
    super(transport);
  }

  /** A client of `entityidx serve` at `url` (`http://127.0.0.1:8765`); `token` for writes. */
  static connect(options: ConnectOptions): Promise<EntityIndex> {
    try {
      return Promise.resolve(new EntityIndex(new HTTPTransport(options)));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
