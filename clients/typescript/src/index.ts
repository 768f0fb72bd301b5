export * from "./types.js";
export { EntityIndexError } from "./errors.js";
export { EntityIndex } from "./node.js";
export type { OpenOptions } from "./node.js";
