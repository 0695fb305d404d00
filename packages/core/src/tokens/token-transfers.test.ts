import { encodeAbiParameters, pad, toEventSelector } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Hex, StoredLog } from '../storage/index.js';
import { tokenTransfersOf } from './token-transfers.js';

const TRANSFER = toEventSelector('Transfer(address,address,uint256)');
const SINGLE = toEventSelector('TransferSingle(address,address,address,uint256,uint256)');
const BATCH = toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])');
const TOKEN: Hex = '0x00000000000000000000000000000000000000aa';
const ALICE: Hex = '0x1111111111111111111111111111111111111111';
const BOB: Hex = '0x2222222222222222222222222222222222222222';
const OPERATOR: Hex = '0x3333333333333333333333333333333333333333';
const MAX = 2n ** 256n - 1n;
const TIMESTAMP = 1_700_000_000n;

const word = (value: bigint): Hex => pad(`0x${value.toString(16)}`, { size: 32 });
const topic = (address: Hex): Hex => pad(address, { size: 32 });

function log(topics: Hex[], data: Hex, logIndex = 0): StoredLog {
  return { address: TOKEN, topics, data, blockNumber: 7n, blockHash: `0x${'bb'.repeat(32)}`, transactionHash: `0x${'cc'.repeat(32)}`, transactionIndex: 2, logIndex };
}

const position = { blockNumber: 7n, transactionHash: `0x${'cc'.repeat(32)}`, transactionIndex: 2, timestamp: TIMESTAMP, token: TOKEN };

describe('tokenTransfersOf', () => {
  it('decodes an ERC-20 Transfer: three topics and one data word', () => {
    expect(tokenTransfersOf([log([TRANSFER, topic(ALICE), topic(BOB)], word(MAX), 4)], TIMESTAMP)).toEqual([
      { ...position, logIndex: 4, batchIndex: 0, standard: 'ERC-20', operator: null, from: ALICE, to: BOB, value: MAX, tokenId: null },
    ]);
  });

  it('decodes an ERC-721 Transfer: four topics, the token id indexed, no data', () => {
    expect(tokenTransfersOf([log([TRANSFER, topic(ALICE), topic(BOB), word(MAX)], '0x')], TIMESTAMP)).toEqual([
      { ...position, logIndex: 0, batchIndex: 0, standard: 'ERC-721', operator: null, from: ALICE, to: BOB, value: 1n, tokenId: MAX },
    ]);
  });

  it('decodes ERC-1155 TransferSingle and every entry of a TransferBatch, in log then batch order', () => {
    const single = log([SINGLE, topic(OPERATOR), topic(ALICE), topic(BOB)], `0x${word(5n).slice(2)}${word(MAX).slice(2)}`, 1);
    const batch = log([BATCH, topic(OPERATOR), topic(BOB), topic(ALICE)], encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n, 2n, MAX], [10n, 20n, 30n]]), 3);
    const common = { ...position, standard: 'ERC-1155', operator: OPERATOR };
    expect(tokenTransfersOf([single, batch], TIMESTAMP)).toEqual([
      { ...common, logIndex: 1, batchIndex: 0, from: ALICE, to: BOB, tokenId: 5n, value: MAX },
      { ...common, logIndex: 3, batchIndex: 0, from: BOB, to: ALICE, tokenId: 1n, value: 10n },
      { ...common, logIndex: 3, batchIndex: 1, from: BOB, to: ALICE, tokenId: 2n, value: 20n },
      { ...common, logIndex: 3, batchIndex: 2, from: BOB, to: ALICE, tokenId: MAX, value: 30n },
    ]);
  });

  it('keeps mints and burns: the zero address is a party like any other', () => {
    const zero: Hex = `0x${'00'.repeat(20)}`;
    const [mint] = tokenTransfersOf([log([TRANSFER, topic(zero), topic(BOB)], word(1n))], TIMESTAMP);
    expect(mint).toMatchObject({ from: zero, to: BOB, value: 1n });
  });

  it('yields nothing for events that only share a selector with the standards', () => {
    const dirtyTopic: Hex = `0x${'ff'.repeat(12)}${ALICE.slice(2)}`;
    const odd = [
      log([TRANSFER], word(1n)),
      log([TRANSFER, topic(ALICE)], word(1n)),
      log([TRANSFER, topic(ALICE), topic(BOB)], `0x${word(1n).slice(2)}${word(2n).slice(2)}`),
      log([TRANSFER, topic(ALICE), topic(BOB)], '0x'),
      log([TRANSFER, topic(ALICE), topic(BOB), word(1n)], word(1n)),
      log([TRANSFER, dirtyTopic, topic(BOB)], word(1n)),
      log([SINGLE, topic(OPERATOR), topic(ALICE), topic(BOB)], word(1n)),
      log([SINGLE, topic(OPERATOR), topic(ALICE)], `0x${word(1n).slice(2)}${word(2n).slice(2)}`),
      log([BATCH, topic(OPERATOR), topic(ALICE), topic(BOB)], encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n, 2n], [10n]])),
      log([BATCH, topic(OPERATOR), topic(ALICE), topic(BOB)], '0x1234'),
      log([toEventSelector('Approval(address,address,uint256)'), topic(ALICE), topic(BOB)], word(1n)),
    ];
    expect(tokenTransfersOf(odd, TIMESTAMP)).toEqual([]);
  });
});
