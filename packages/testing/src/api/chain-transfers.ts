import { decodeEventLog, parseAbi, type Address, type Log } from 'viem';

/** The standards' transfer events, decoded by viem: the reference for the indexer's own decoder. */
const TRANSFER_ABIS = [
  parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']),
  parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)']),
  parseAbi([
    'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
    'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  ]),
];

/** One token movement as viem reads it from a log (a batch gives one per id). */
export interface ChainTransfer {
  token: Address;
  from: Address;
  to: Address;
  /** ERC-721 and ERC-1155 token id, else `null`. */
  id: bigint | null;
}

/** The token movements a node's log carries, lowercase addresses; none for other events. */
export function chainTransfers(log: Log): ChainTransfer[] {
  for (const abi of TRANSFER_ABIS) {
    let args: Record<string, unknown>;
    try {
      args = (decodeEventLog({ abi, data: log.data, topics: log.topics, strict: true }) as { args: Record<string, unknown> }).args;
    } catch {
      continue;
    }
    const base = { token: lower(log.address), from: lower(args.from as Address), to: lower(args.to as Address) };
    if (Array.isArray(args.ids)) return (args.ids as bigint[]).map((id) => ({ ...base, id }));
    const id = (args.tokenId ?? args.id ?? null) as bigint | null;
    return [{ ...base, id }];
  }
  return [];
}

function lower(address: Address): Address {
  return address.toLowerCase() as Address;
}
