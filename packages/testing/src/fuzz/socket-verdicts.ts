import { ERROR_TABLE } from '@chainlens/core';

/** A server message, parsed. */
export type ServerMessage = Record<string, unknown>;

/** The answers a client message gets (data and reorg notices are not answers: they come on their own). */
export const REPLY_EVENTS = new Set(['pong', 'subscribed', 'unsubscribed', 'error', 'authenticated']);

const STACK_TRACE = /\n\s+at |\.[cm]?[jt]s:\d+/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `keys` are exactly the object's keys, the optional ones allowed to be missing. */
function keysAre(message: ServerMessage, required: readonly string[], optional: readonly string[] = []): boolean {
  const keys = Object.keys(message);
  return required.every((key) => keys.includes(key)) && keys.every((key) => required.includes(key) || optional.includes(key));
}

const isText = (value: unknown) => typeof value === 'string';
const isOptionalText = (value: unknown) => value === undefined || typeof value === 'string';

/**
 * What is wrong with one frame the server sent on the channel protocol, or `null`: JSON of one of
 * the protocol's shapes (pong, ack, authenticated, error with a message, data, reorg), and no
 * internal error or stack trace in an error.
 */
export function serverMessageProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!isObject(value)) return 'not a JSON object';
  const message = value;
  switch (message.event) {
    case 'pong':
    case 'authenticated':
      return keysAre(message, ['event']) ? null : `${message.event} with other keys`;
    case 'subscribed':
    case 'unsubscribed':
      return keysAre(message, ['event', 'channel'], ['address']) && isText(message.channel) && isOptionalText(message.address) ? null : 'malformed acknowledgement';
    case 'error':
      if (!keysAre(message, ['event', 'message'], ['channel', 'address']) || !isOptionalText(message.channel) || !isOptionalText(message.address)) return 'malformed error';
      if (typeof message.message !== 'string' || message.message === '') return 'an error without a message';
      if (message.message === ERROR_TABLE.INTERNAL.message) return 'an internal error';
      return STACK_TRACE.test(message.message) ? 'a stack trace in an error' : null;
    case 'reorg':
      return reorgProblem(message);
    case undefined:
      return dataProblem(message);
    default:
      return `unknown event ${JSON.stringify(message.event)}`;
  }
}

function reorgProblem(message: ServerMessage): string | null {
  const data = message.data;
  if (!keysAre(message, ['event', 'channel', 'data']) || message.channel !== 'blocks' || !isObject(data)) return 'malformed reorg';
  const ancestor = data.commonAncestor;
  const hashes = data.removedBlockHashes;
  if (!isObject(ancestor) || !isText(ancestor.blockNumber) || !isText(ancestor.blockHash)) return 'malformed reorg ancestor';
  return Array.isArray(hashes) && hashes.every(isText) ? null : 'malformed reorg hashes';
}

function dataProblem(message: ServerMessage): string | null {
  if (!keysAre(message, ['sequence', 'channel', 'blockNumber', 'data'], ['address', 'removed'])) return `not a protocol message (keys ${Object.keys(message).join()})`;
  if (!Number.isInteger(message.sequence) || (message.sequence as number) < 1) return 'data with a bad sequence';
  if (!isText(message.channel) || !isOptionalText(message.address)) return 'data with a bad channel or address';
  if (message.blockNumber !== null && !(isText(message.blockNumber) && /^\d+$/.test(message.blockNumber as string))) return 'data with a bad blockNumber';
  if (message.removed !== undefined && message.removed !== true) return 'data with a bad removed flag';
  return message.data === undefined || message.data === null ? 'data without a payload' : null;
}
