// The package's entry for browsers (the "browser" condition of its exports map, and `entityidx-client/browser`):
// the types, the errors, `EntityIndex.connect` over fetch and the Capacitor plugin's shape; nothing of Node.
export * from "./types.js";
export { EntityIndexError } from "./errors.js";
export { EntityIndex } from "./web.js";
export type { ConnectOptions, FetchFunction, FetchResponse } from "./http.js";
export { EntityIndexWeb, registerEntityIndex, pluginName } from "./capacitor.js";
export type { EntityIndexPlugin, PluginImplementations, RegisterPlugin } from "./capacitor.js";
