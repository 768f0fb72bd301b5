// The few Node.js APIs the client uses, declared here so that it compiles with TypeScript alone (no @types/node).

declare module "node:child_process" {
  interface Readable {
    on(event: "data", listener: (chunk: Uint8Array) => void): this;
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

declare class TextDecoder {
  constructor(label?: string);
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
