import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { type BlockTag, blockTagText } from '../values/block-tag.js';

/** A scalar refusing what does not match `pattern`, with a message that says what it expects. */
function hexScalar(name: string, pattern: RegExp, expected: string): GraphQLScalarType<string, string> {
  const parse = (value: unknown, node?: ValueNode): string => {
    if (typeof value !== 'string' || !pattern.test(value)) {
      throw new GraphQLError(`${name} must be ${expected}; got ${JSON.stringify(value) ?? String(value)}`, { nodes: node, extensions: { code: 'BAD_USER_INPUT' } });
    }
    return value.toLowerCase();
  };
  return new GraphQLScalarType<string, string>({
    name,
    description: `${expected}, answered in lowercase`,
    serialize: (value) => parse(value),
    parseValue: (value) => parse(value),
    // The literal's node gives the error its location in the document.
    parseLiteral: (node: ValueNode) => parse(node.kind === Kind.STRING ? node.value : literalText(node), node),
  });
}

/** What a non-string literal looks like in the document, for the error message. */
function literalText(node: ValueNode): string {
  return 'value' in node && typeof node.value === 'string' ? node.value : node.kind;
}

/** `0x` and 20 bytes of hex; answered in lowercase, as storage keeps it. */
export const AddressScalar = hexScalar('Address', /^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte hex address');

/** `0x` and 32 bytes of hex (block and transaction hashes, topics). */
export const HashScalar = hexScalar('Hash', /^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte hex hash');

function parseBlockNumber(value: unknown, node?: ValueNode): BlockTag {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  const parsed = blockTagText.safeParse(text);
  if (!parsed.success) {
    throw new GraphQLError(`BlockNumber must be a non-negative integer (a decimal string or an Int) or "latest"; got ${JSON.stringify(value) ?? String(value)}`, {
      nodes: node,
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
  return parsed.data;
}

/** A block number as a decimal string or an Int, or `"latest"` (the newest indexed block); resolvers receive a bigint or `'latest'`. */
export const BlockNumberScalar = new GraphQLScalarType<BlockTag, string>({
  name: 'BlockNumber',
  description: 'A non-negative block number, as a decimal string or an Int, or "latest": the newest indexed block',
  serialize: (value) => String(parseBlockNumber(typeof value === 'bigint' ? value.toString() : value)),
  parseValue: (value) => parseBlockNumber(value),
  parseLiteral: (node) => parseBlockNumber(node.kind === Kind.STRING || node.kind === Kind.INT ? node.value : literalText(node), node),
});
