export function anvilCommand(): { command: string; args: string[] };
export function rpcCall<T = unknown>(rpcUrl: string, method: string, params?: unknown[]): Promise<T>;
export function freePort(): Promise<number>;

export interface RunningAnvil {
  rpcUrl: string;
  port: number;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Starts anvil on 127.0.0.1 (`port` 0 or unset: any free port; `blockTime` seconds: also interval blocks). */
export function startAnvil(options?: {
  port?: number;
  chainId?: number;
  timeoutMs?: number;
  blockTime?: number;
}): Promise<RunningAnvil>;
