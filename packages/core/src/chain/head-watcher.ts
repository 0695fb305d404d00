import type { Logger } from 'pino';
import { createPublicClient, webSocket } from 'viem';

/** Callbacks of {@link watchNode}. */
export interface NodeWatchHandlers {
  onNewHead(): void;
  onPendingTransactions(): void;
}

/**
 * Subscribes to the node's WebSocket `newHeads` and `newPendingTransactions` so the indexer and
 * the pending tracker react at once instead of at their next poll. Polling stays the safety net:
 * a dropped subscription costs latency, never data.
 */
export function watchNode(wsRpcUrl: string, handlers: NodeWatchHandlers, logger: Logger): { stop(): Promise<void> } {
  const client = createPublicClient({ transport: webSocket(wsRpcUrl, { reconnect: true, retryCount: Number.MAX_SAFE_INTEGER }) });
  const onError = (error: Error) => logger.warn({ err: error }, 'node WebSocket subscription failed; polling continues');
  const unwatchHeads = client.watchBlockNumber({ emitOnBegin: false, onBlockNumber: handlers.onNewHead, onError });
  const unwatchPending = client.watchPendingTransactions({ onTransactions: handlers.onPendingTransactions, onError });
  return {
    async stop() {
      unwatchHeads();
      unwatchPending();
      const { socket } = (await client.transport.getRpcClient().catch(() => ({ socket: null }))) as { socket: { close(): void } | null };
      socket?.close();
    },
  };
}
