import { useEffect, useRef, useState } from 'preact/hooks';
import { socketUrl } from './api.js';

/** A data message of the channel protocol at `/ws`. */
export interface ChannelMessage<T> {
  channel: string;
  blockNumber: string | null;
  data: T;
  /** Sent again after a reorg: the data is no longer on the chain. */
  removed?: boolean;
}

type Listener = (message: ChannelMessage<unknown>) => void;

/** Whether the page hears the server's channels right now. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/**
 * One WebSocket to the server's channels, shared by every component: subscribes to a channel
 * while anyone listens to it, and reconnects (subscribing again) after a drop, waiting longer
 * after each failed try (up to 10 s).
 */
class LiveConnection {
  private socket: WebSocket | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly statusListeners = new Set<(status: LiveStatus) => void>();
  private retryMs = 500;
  private timer: ReturnType<typeof setTimeout> | undefined;
  status: LiveStatus = 'connecting';

  listen(channel: string, listener: Listener): () => void {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      this.send({ event: 'subscribe', channel });
    }
    set.add(listener);
    this.connect();
    return () => {
      set.delete(listener);
      if (set.size === 0) {
        this.listeners.delete(channel);
        this.send({ event: 'unsubscribe', channel });
      }
    };
  }

  onStatus(listener: (status: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private connect(): void {
    if (this.socket || this.timer !== undefined) return;
    const socket = new WebSocket(socketUrl());
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = 500;
      this.setStatus('live');
      for (const channel of this.listeners.keys()) this.send({ event: 'subscribe', channel });
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as ChannelMessage<unknown> & { event?: string };
      if (message.event !== undefined) return; // acknowledgements, pongs and reorg notices: the data that follows says it all
      for (const listener of this.listeners.get(message.channel) ?? []) listener(message);
    };
    socket.onclose = () => {
      this.socket = null;
      this.setStatus('reconnecting');
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (this.listeners.size > 0) this.connect();
      }, this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    };
  }

  private send(message: object): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private setStatus(status: LiveStatus): void {
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }
}

const live = new LiveConnection();

/** Calls `onMessage` with every message of `channel` while the component is shown. */
export function useChannel<T>(channel: string, onMessage: (message: ChannelMessage<T>) => void): void {
  const latest = useRef(onMessage);
  latest.current = onMessage;
  useEffect(() => live.listen(channel, (message) => latest.current(message as ChannelMessage<T>)), [channel]);
}

/** Whether the channels are connected. */
export function useLiveStatus(): LiveStatus {
  const [status, setStatus] = useState(live.status);
  useEffect(() => live.onStatus(setStatus), []);
  return status;
}
