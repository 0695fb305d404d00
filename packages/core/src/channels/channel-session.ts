import { scopesOf } from '../auth/scopes.js';
import type { Principal } from '../auth/principal.js';
import { ERROR_TABLE, ForbiddenError, UnauthorizedError, toExplorerError } from '../errors/index.js';
import type { SocketAdmission } from '../sockets/socket-endpoint.js';
import { SOCKET_OPEN, type SocketData, type SocketLike } from '../sockets/socket-like.js';
import { streamKey } from './channel-definition.js';
import type { ChannelEndpoint } from './channel-endpoint.js';
import { parseClientMessage, type ClientMessage } from './client-message.js';
import { Subscription } from './subscription.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

type Subscribe = Extract<ClientMessage, { event: 'subscribe' }>;
type Unsubscribe = Extract<ClientMessage, { event: 'unsubscribe' }>;

/**
 * One connection speaking the channel protocol. Messages are handled one after the other, so a
 * `subscribe` sent right behind an `auth` sees its credentials. Every mistake is answered with
 * `{event: 'error', message}` and the connection stays open.
 */
export class ChannelSession {
  readonly #subscriptions = new Map<string, Subscription>();
  #principal: Principal | null;
  #queue: Promise<void> = Promise.resolve();
  #open = true;

  constructor(
    private readonly socket: SocketLike,
    private readonly admission: SocketAdmission,
    private readonly endpoint: ChannelEndpoint,
  ) {
    this.#principal = admission.principal;
  }

  listen(): void {
    this.socket.on('message', (data, isBinary) => {
      const text = isBinary ? null : textOf(data);
      this.#queue = this.#queue.then(() => this.#handle(text)).catch((error: unknown) => {
        this.endpoint.options.logger.error({ err: error }, 'a channel message failed');
        this.#send({ event: 'error', message: ERROR_TABLE.INTERNAL.message });
      });
    });
    this.socket.on('close', () => {
      this.#open = false;
      for (const subscription of this.#subscriptions.values()) this.endpoint.remove(subscription);
      this.#subscriptions.clear();
    });
  }

  async #handle(text: string | null): Promise<void> {
    if (!this.#open) return;
    const message = text === null ? 'Binary messages are not accepted: send JSON text' : parseClientMessage(text);
    if (typeof message === 'string') return this.#send({ event: 'error', message });
    switch (message.event) {
      case 'ping':
        return this.#send({ event: 'pong' });
      case 'auth':
        return this.#authenticate(message.token, message.apiKey);
      case 'subscribe':
        return this.#subscribe(message);
      case 'unsubscribe':
        return this.#unsubscribe(message);
    }
  }

  async #authenticate(token: string | undefined, apiKey: string | undefined): Promise<void> {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (apiKey !== undefined) headers['x-api-key'] = apiKey;
    try {
      const request = { ...this.admission.request, headers };
      const principal = await this.endpoint.options.authenticate(request);
      if (!principal) throw new UnauthorizedError();
      this.#principal = principal;
      // From now on the connection lasts as long as these credentials hold.
      this.endpoint.options.credentials.watch(this.socket, principal, request);
      this.#send({ event: 'authenticated' });
    } catch (error) {
      this.#send({ event: 'error', message: toExplorerError(error).message });
    }
  }

  async #subscribe({ channel: name, address: given, fromBlock }: Subscribe): Promise<void> {
    const refuse = (message: string) => this.#send({ event: 'error', message, channel: name, ...(given === undefined ? {} : { address: given }) });
    const channel = this.endpoint.options.registry.get(name);
    if (!channel) return refuse(`Unknown channel: ${name.slice(0, 64)}`);
    if (channel.addressed && given === undefined) return refuse(`Missing address: channel ${name} needs one`);
    if (!channel.addressed && given !== undefined) return refuse(`Channel ${name} takes no address`);
    if (given !== undefined && !ADDRESS.test(given)) return refuse(ERROR_TABLE.INVALID_ADDRESS.message);
    const address = given?.toLowerCase();
    if (channel.scope !== undefined) {
      if (!this.#principal) return refuse(new UnauthorizedError().message);
      if (!scopesOf(this.#principal).has(channel.scope)) return refuse(new ForbiddenError().message);
    }
    const verdict = channel.validate?.({ address, principal: this.#principal }) ?? true;
    if (verdict !== true) return refuse(verdict);
    if (fromBlock !== undefined && !channel.replayable) return refuse(`fromBlock is not available on channel ${name}`);
    const key = streamKey(name, address);
    const ack = () => this.#send({ event: 'subscribed', channel: name, ...(address === undefined ? {} : { address }) });
    if (this.#subscriptions.has(key)) return ack();
    const { maxSubscriptions, reorgMemoryBlocks } = this.endpoint.options.limits;
    if (this.#subscriptions.size >= maxSubscriptions) return refuse(`Too many subscriptions: at most ${maxSubscriptions} per connection`);
    const subscription = new Subscription(channel, key, address, (text) => this.socket.send(text), reorgMemoryBlocks);
    this.#subscriptions.set(key, subscription);
    this.endpoint.add(subscription);
    if (fromBlock === undefined) return ack();
    const refused = await this.endpoint.replay(subscription, fromBlock, ack, () => this.#open && this.#subscriptions.get(key) === subscription);
    if (refused === null) return;
    this.#subscriptions.delete(key);
    this.endpoint.remove(subscription);
    refuse(refused);
  }

  #unsubscribe({ channel, address }: Unsubscribe): void {
    const key = streamKey(channel, address?.toLowerCase());
    const subscription = this.#subscriptions.get(key);
    if (subscription) {
      this.#subscriptions.delete(key);
      this.endpoint.remove(subscription);
    }
    this.#send({ event: 'unsubscribed', channel, ...(address === undefined ? {} : { address: address.toLowerCase() }) });
  }

  #send(message: object): void {
    if (this.socket.readyState === SOCKET_OPEN) this.socket.send(JSON.stringify(message));
  }
}

function textOf(data: SocketData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
