// The few Node.js APIs the client uses, so that it compiles with TypeScript alone (no @types/node). Only the client's
// own build reads this file: the declarations it emits do not refer to these types, and it declares no globals, so
// a project that compiles against the package (with lib "dom", or with @types/node) never sees it.

declare module "node:child_process" {
  interface Readable {
    setEncoding(encoding: "utf8"): this;
    on(event: "data", listener: (chunk: string) => void): this;
    on(event: "end", listener: () => void): this;
  }
  interface Writable {
    write(data: string): boolean;
    end(): void;
    on(event: "error", listener: (error: Error) => void): this;
  }
  interface ChildProcess {
    readonly stdin: Writable | null;
    readonly stdout: Readable | null;
    readonly exitCode: number | null;
    readonly signalCode: string | null;
    kill(signal?: string): boolean;
    once(event: "spawn", listener: () => void): this;
    once(event: "error", listener: (error: Error) => void): this;
    once(event: "exit", listener: (code: number | null, signal: string | null) => void): this;
    on(event: "error", listener: (error: Error) => void): this;
  }
  interface SpawnOptions {
    stdio?: Array<"pipe" | "inherit" | "ignore">;
    env?: Record<string, string | undefined>;
    cwd?: string;
  }
  function spawn(command: string, args: readonly string[], options?: SpawnOptions): ChildProcess;
}
