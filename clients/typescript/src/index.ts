export * from "./types";
export { EntityIndexError } from "./errors";
export { EntityIndex } from "./node";
export type { OpenOptions } from "./node";
