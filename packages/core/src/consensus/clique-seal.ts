import { keccak256, recoverAddress, size, slice, toRlp, type Hex as ViemHex } from 'viem';
import type { Hex } from '../storage/index.js';

/** Bytes of the signature clique appends to a header's `extraData` (r, s and a 0/1 recovery id). */
export const CLIQUE_SEAL_BYTES = 65;

/** The header fields a clique seal covers, as the node's `eth_getBlockByNumber` answers them. */
export interface CliqueHeader {
  parentHash: string;
  sha3Uncles: string;
  miner: string;
  stateRoot: string;
  transactionsRoot: string;
  receiptsRoot: string;
  logsBloom: string;
  difficulty: string;
  number: string;
  gasLimit: string;
  gasUsed: string;
  timestamp: string;
  extraData: string;
  mixHash: string;
  nonce: string;
  baseFeePerGas?: string | null;
}

/** A header's `extraData` too short to hold a clique seal. */
export class MissingCliqueSealError extends Error {
  constructor(readonly blockNumber: string) {
    super(`block ${BigInt(blockNumber)} carries no clique seal: its extraData is shorter than ${CLIQUE_SEAL_BYTES} bytes`);
    this.name = 'MissingCliqueSealError';
  }
}

/**
 * The hash a clique signer signs: the RLP of the header with the seal cut off the end of
 * `extraData` (geth's `SealHash`). A London header includes its base fee.
 */
export function cliqueSealHash(header: CliqueHeader): Hex {
  const extra = header.extraData as ViemHex;
  if (size(extra) < CLIQUE_SEAL_BYTES) throw new MissingCliqueSealError(header.number);
  const fields: ViemHex[] = [
    header.parentHash as ViemHex,
    header.sha3Uncles as ViemHex,
    header.miner as ViemHex,
    header.stateRoot as ViemHex,
    header.transactionsRoot as ViemHex,
    header.receiptsRoot as ViemHex,
    header.logsBloom as ViemHex,
    quantity(header.difficulty),
    quantity(header.number),
    quantity(header.gasLimit),
    quantity(header.gasUsed),
    quantity(header.timestamp),
    slice(extra, 0, size(extra) - CLIQUE_SEAL_BYTES),
    header.mixHash as ViemHex,
    header.nonce as ViemHex,
  ];
  if (header.baseFeePerGas != null) fields.push(quantity(header.baseFeePerGas));
  return keccak256(toRlp(fields));
}

/** The seal at the end of `extraData`. */
export function cliqueSeal(header: CliqueHeader): Hex {
  const extra = header.extraData as ViemHex;
  if (size(extra) < CLIQUE_SEAL_BYTES) throw new MissingCliqueSealError(header.number);
  return slice(extra, size(extra) - CLIQUE_SEAL_BYTES).toLowerCase() as Hex;
}

/** The signer who sealed `header`, lowercase. */
export async function recoverCliqueSigner(header: CliqueHeader): Promise<Hex> {
  const seal = cliqueSeal(header);
  const signer = await recoverAddress({ hash: cliqueSealHash(header), signature: seal });
  return signer.toLowerCase() as Hex;
}

/** An RLP integer: big-endian without leading zero bytes, zero as the empty string. */
function quantity(value: string): ViemHex {
  const hex = BigInt(value).toString(16);
  if (hex === '0') return '0x';
  return `0x${hex.length % 2 === 0 ? hex : `0${hex}`}`;
}
