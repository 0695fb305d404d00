import { concat, keccak256, numberToHex, pad, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { cliqueSealHash, type CliqueHeader } from '../src/consensus/clique-seal.js';

/** The 32 vanity bytes clique headers start their extraData with. */
export const VANITY = pad('0x636c69717565', { dir: 'right', size: 32 });

/** A London-era clique header of block `number` whose extraData holds an empty (zero) seal. */
export function unsignedCliqueHeader(number: bigint, overrides: Partial<CliqueHeader> = {}): CliqueHeader {
  return {
    parentHash: keccak256(numberToHex(number)),
    sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
    miner: '0x0000000000000000000000000000000000000000',
    stateRoot: keccak256(numberToHex(number + 1_000n)),
    transactionsRoot: keccak256('0x03'),
    receiptsRoot: keccak256('0x04'),
    logsBloom: `0x${'00'.repeat(256)}`,
    difficulty: '0x2',
    number: numberToHex(number),
    gasLimit: '0x1c9c380',
    gasUsed: '0x5208',
    timestamp: numberToHex(1_700_000_000n + number * 5n),
    extraData: concat([VANITY, `0x${'00'.repeat(65)}`]),
    mixHash: `0x${'00'.repeat(32)}`,
    nonce: '0x0000000000000000',
    baseFeePerGas: '0x7',
    ...overrides,
  };
}

/** Seals `header` as a geth clique signer does: signs the seal hash and writes r‖s‖(0|1) over the seal. */
export async function sealCliqueHeader(header: CliqueHeader, privateKey: Hex): Promise<CliqueHeader> {
  const signature = await privateKeyToAccount(privateKey).sign({ hash: cliqueSealHash(header) });
  const recoveryId = Number.parseInt(signature.slice(-2), 16) - 27;
  return { ...header, extraData: concat([VANITY, signature.slice(0, 130) as Hex, numberToHex(recoveryId, { size: 1 })]) };
}
