import { GraphQLError, type ExecutionArgs, type ExecutionResult, type FormattedExecutionResult } from 'graphql';
import { CloseCode, handleProtocols, makeServer, MessageType } from 'graphql-ws';
import type { Logger } from 'pino';
import type { SocketAdmission, SocketEndpoint } from '../sockets/socket-endpoint.js';
import { SOCKET_OPEN, type SocketLike } from '../sockets/socket-like.js';
import type { GraphqlExecutor } from './executor.js';
import { readRequest, RequestRefusal } from './operation.js';
import { sharedSubscribe } from './shared-execution.js';

/** Options of {@link graphqlSocketEndpoint}. */
export interface GraphqlSocketEndpointOptions {
  /** Operations one connection may run at once (`sockets.maxSubscriptions`). */
  maxSubscriptions: number;
  /** How long a connection may stay without `connection_init` before it is closed (4408). */
  connectionInitWaitTimeoutMs?: number;
  logger: Logger;
}

/**
 * GraphQL subscriptions (and queries) over the `graphql-transport-ws` protocol at `/graphql`,
 * built on `graphql-ws`'s transport-neutral server. The socket gateway has already admitted the
 * connection (origin, credentials, per-IP limit) and owns heartbeat and backpressure; every
 * operation here passes the same document limits as over HTTP and runs as the caller who connected.
 *
 * @example
 * ```ts
 * const endpoint = graphqlSocketEndpoint(executor, { maxSubscriptions: 50, logger });
 * // handed to the socket gateway beside the channel endpoint at /ws
 * ```
 */
export function graphqlSocketEndpoint(executor: GraphqlExecutor, options: GraphqlSocketEndpointOptions): SocketEndpoint {
  const { maxSubscriptions, logger } = options;
  // What makes two subscriptions one operation: their results are executed once and shared.
  const operationKeys = new WeakMap<object, string>();
  const formatted = new WeakMap<ExecutionResult, FormattedExecutionResult>();
  const server = makeServer<Record<string, unknown> | undefined, { admission: SocketAdmission }>({
    schema: executor.schema,
    subscribe: sharedSubscribe((args) => operationKeys.get(args.contextValue as object)),
    connectionInitWaitTimeout: options.connectionInitWaitTimeoutMs ?? 3_000,
    onSubscribe(context, _id, payload): ExecutionArgs | readonly GraphQLError[] {
      if (Object.keys(context.subscriptions).length > maxSubscriptions) {
        return [new GraphQLError(`A connection runs at most ${maxSubscriptions} operations at once`, { extensions: { code: 'LIMIT_EXCEEDED', limit: 'maxSubscriptions' } })];
      }
      const request = readRequest(payload, false);
      if (request instanceof RequestRefusal) return request.errors;
      const prepared = executor.prepare(request, ['query', 'subscription']);
      if (prepared instanceof RequestRefusal) return prepared.errors;
      const { principal } = context.extra.admission;
      const contextValue = executor.contextFor(principal);
      operationKeys.set(contextValue, JSON.stringify([request.query, request.operationName ?? null, request.variables ?? null, principal?.user.id ?? null]));
      return { schema: executor.schema, document: prepared.document, operationName: request.operationName, variableValues: request.variables, contextValue };
    },
    // Resolver errors are shaped as over HTTP: ChainLens's codes kept, the unexpected masked.
    onNext: (_context, _id, _payload, _args, result) => {
      let answer = formatted.get(result);
      if (!answer) formatted.set(result, (answer = executor.format(result)));
      return answer;
    },
  });
  return {
    path: '/graphql',
    stats: () => executor.subscriptions(),
    selectProtocol: (offered) => handleProtocols([...offered]),
    open(socket: SocketLike, admission: SocketAdmission) {
      const closed = server.opened(
        {
          protocol: socket.protocol,
          send: (data) =>
            new Promise<void>((resolve, reject) => {
              if (socket.readyState !== SOCKET_OPEN) return resolve();
              socket.send(data, (error) => (error ? reject(error) : resolve()));
            }),
          close: (code, reason) => socket.close(code, reason),
          onMessage: (handle) =>
            socket.on('message', async (data) => {
              const text = String(data);
              // graphql-ws throws on a message only servers send, which would read as its own failure (4500).
              if (isServerOnlyMessage(text)) return socket.close(CloseCode.BadRequest, 'Invalid message received');
              try {
                await handle(text);
              } catch (error) {
                logger.error({ err: error }, 'unexpected error in a GraphQL socket operation');
                socket.close(CloseCode.InternalServerError, 'Internal server error');
              }
            }),
        },
        { admission },
      );
      socket.on('close', (code, reason) => {
        void closed(code, String(reason));
      });
    },
  };
}

/** Messages of `graphql-transport-ws` that only a server sends: from a client, a protocol violation. */
const SERVER_ONLY_TYPES: ReadonlySet<unknown> = new Set([MessageType.ConnectionAck, MessageType.Next, MessageType.Error]);

function isServerOnlyMessage(text: string): boolean {
  try {
    const message: unknown = JSON.parse(text);
    return typeof message === 'object' && message !== null && SERVER_ONLY_TYPES.has((message as { type?: unknown }).type);
  } catch {
    return false;
  }
}
