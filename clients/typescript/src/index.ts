export * from "./types.js";
export { EntityIndexError } from "./errors.js";
export { EntityIndex } from "./node.js";
export type { OpenOptions } from "./node.js";
export type { ConnectOptions, FetchFunction, FetchResponse } from "./http.js";
export { EntityIndexWeb, registerEntityIndex, pluginName } from "./capacitor.js";
export type { EntityIndexPlugin, PluginImplementations, RegisterPlugin } from "./capacitor.js";
