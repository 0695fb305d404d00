import { z } from 'zod';
import { blockTagText } from '../values/block-tag.js';

/** A block number (a JSON number or a decimal string) or `latest`. */
const blockTag = z.union([z.number().int().nonnegative().transform((v) => BigInt(v)), blockTagText]);

/** What a client may send on the channel protocol. */
export const clientMessageSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('ping') }),
  z.object({ event: z.literal('subscribe'), channel: z.string(), address: z.string().optional(), fromBlock: blockTag.optional() }),
  z.object({ event: z.literal('unsubscribe'), channel: z.string(), address: z.string().optional() }),
  z.object({ event: z.literal('auth'), token: z.string().optional(), apiKey: z.string().optional() }),
]);

export type ClientMessage = z.output<typeof clientMessageSchema>;

/**
 * Reads one client message; a string is the error message to answer (the socket stays open).
 */
export function parseClientMessage(text: string): ClientMessage | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'Malformed JSON';
  }
  const parsed = clientMessageSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const event = typeof json === 'object' && json !== null ? (json as { event?: unknown }).event : undefined;
  if (typeof event === 'string' && !['ping', 'subscribe', 'unsubscribe', 'auth'].includes(event)) return `Unknown event: ${event.slice(0, 64)}`;
  const issue = parsed.error.issues[0]!;
  return `Invalid message: ${issue.path.join('.') || 'event'}: ${issue.message}`;
}
