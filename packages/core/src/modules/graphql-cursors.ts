import { GraphQLError } from 'graphql';

const PREFIX = 'cl:';

/**
 * Opaque cursors: a position in a list, base64url-encoded so clients treat it as a token and
 * never build one.
 */
export function encodeCursor(position: number): string {
  return Buffer.from(`${PREFIX}${position}`).toString('base64url');
}

/** The position `cursor` stands for; a cursor this server did not make is refused. */
export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const position = text.startsWith(PREFIX) ? Number(text.slice(PREFIX.length)) : Number.NaN;
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(cursor) || !Number.isSafeInteger(position) || position < 0) {
    throw new GraphQLError(`after must be a cursor from an earlier answer's pageInfo.endCursor or edges.cursor; got ${JSON.stringify(cursor)}`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
  return position;
}
