import { concat, keccak256, toRlp, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { sealCliqueHeader as seal, unsignedCliqueHeader, VANITY } from '../../test/clique-headers.js';
import { cliqueSeal, cliqueSealHash, MissingCliqueSealError, recoverCliqueSigner, type CliqueHeader } from './clique-seal.js';

const unsignedHeader = (overrides: Partial<CliqueHeader> = {}) => unsignedCliqueHeader(436n, overrides);

describe('clique seals', () => {
  it('recovers the signer of a header sealed with a real key', async () => {
    const key = generatePrivateKey();
    const sealed = await seal(unsignedHeader(), key);
    expect(await recoverCliqueSigner(sealed)).toBe(privateKeyToAccount(key).address.toLowerCase());
    expect(cliqueSeal(sealed)).toBe(`0x${sealed.extraData.slice(-130)}`);
  });

  it('hashes exactly the header fields in geth order, the seal cut off and the base fee last', () => {
    const header = unsignedHeader();
    const expected = keccak256(
      toRlp([
        header.parentHash, header.sha3Uncles, header.miner, header.stateRoot, header.transactionsRoot, header.receiptsRoot, header.logsBloom,
        '0x02', '0x01b4', '0x01c9c380', '0x5208', header.timestamp, VANITY, header.mixHash, header.nonce, '0x07',
      ] as Hex[]),
    );
    expect(cliqueSealHash(header)).toBe(expected);
    // The seal itself is not covered: a sealed header hashes as its unsigned self.
    expect(cliqueSealHash({ ...header, extraData: concat([VANITY, `0x${'ab'.repeat(65)}`]) })).toBe(expected);
    // A pre-London header has no base fee field at all.
    const { baseFeePerGas: _, ...preLondon } = header;
    expect(cliqueSealHash(preLondon)).not.toBe(expected);
  });

  it('encodes zero quantities as the empty RLP string', () => {
    const header = unsignedHeader({ gasUsed: '0x0', baseFeePerGas: '0x0' });
    const hashed = keccak256(
      toRlp([
        header.parentHash, header.sha3Uncles, header.miner, header.stateRoot, header.transactionsRoot, header.receiptsRoot, header.logsBloom,
        '0x02', '0x01b4', '0x01c9c380', '0x', header.timestamp, VANITY, header.mixHash, header.nonce, '0x',
      ] as Hex[]),
    );
    expect(cliqueSealHash(header)).toBe(hashed);
  });

  it('attributes a header altered after sealing to someone else', async () => {
    const key = generatePrivateKey();
    const sealed = await seal(unsignedHeader(), key);
    const altered = { ...sealed, stateRoot: keccak256('0x99') };
    expect(await recoverCliqueSigner(altered)).not.toBe(privateKeyToAccount(key).address.toLowerCase());
  });

  it('refuses a header whose extraData cannot hold a seal', async () => {
    const header = unsignedHeader({ extraData: VANITY });
    expect(() => cliqueSealHash(header)).toThrow(MissingCliqueSealError);
    await expect(recoverCliqueSigner(header)).rejects.toThrow('carries no clique seal');
  });
});
