import { parseAbi, toEventSelector, type AbiEvent } from 'viem';

/**
 * Events of the token standards and of Uniswap-V2-style pairs and factories, known without a
 * verified ABI. ERC-20 and ERC-721 share the
 * `Transfer`/`Approval` selectors and differ only in how many parameters are indexed, so each
 * candidate is keyed by selector and topic count.
 */
export const STANDARD_EVENTS: readonly AbiEvent[] = [
  ...parseAbi([
    'event Transfer(address indexed from, address indexed to, uint256 value)',
    'event Approval(address indexed owner, address indexed spender, uint256 value)',
    'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
    'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
    'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
    'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
    'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
    'event URI(string value, uint256 indexed id)',
    'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)',
    'event Sync(uint112 reserve0, uint112 reserve1)',
    'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
    'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
    'event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)',
  ]),
];

/** `selector:topicCount` → the standard event with that shape. */
export const STANDARD_EVENTS_BY_SHAPE: ReadonlyMap<string, AbiEvent> = new Map(
  STANDARD_EVENTS.map((event) => [shapeKey(toEventSelector(event), 1 + event.inputs.filter((i) => i.indexed).length), event]),
);

/** Key of an event shape: its selector and number of topics. */
export function shapeKey(selector: string, topicCount: number): string {
  return `${selector.toLowerCase()}:${topicCount}`;
}
