import { createChainClient, type Hex, type Storage, type StoredBlock } from '@chainlens/core';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { keccak256, numberToHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliqueConsensusSource } from '../src/consensus/clique-consensus-source.js';
import type { CliqueHeader } from '../src/consensus/clique-seal.js';
import { EvmConsensusSource } from '../src/consensus/evm-consensus-source.js';
import { EvmFinality } from '../src/consensus/evm-finality.js';
import { sealCliqueHeader, unsignedCliqueHeader } from './clique-headers.js';

const NODE = 'http://geth-clique.test:8545/';
const REQUIRED_CONFIRMATIONS = 5;

/** Three authorized signers, in clique's turn order (ascending address), plus one voted out. */
const keys = Array.from({ length: 4 }, () => generatePrivateKey());
const byAddress = new Map(keys.map((key) => [privateKeyToAccount(key).address.toLowerCase() as Hex, key]));
const [formerSigner, ...signers] = [...byAddress.keys()].sort();
const signerKeys = signers.map((s) => byAddress.get(s)!);

/** Blocks 1..30. Block 7 and 8 are sealed out of turn (the in-turn signer was late); block 3 by the former signer. */
const HEAD = 30n;
const outOfTurn = new Map<bigint, Hex>([
  [3n, byAddress.get(formerSigner!)!],
  [7n, signerKeys[(7 + 1) % 3]!],
  [8n, signerKeys[(8 + 2) % 3]!],
]);
const headers = new Map<Hex, CliqueHeader>();
const stored: StoredBlock[] = [];

const server = setupServer(
  http.post(NODE, async ({ request }) => {
    const { id, method, params } = (await request.json()) as { id: number; method: string; params: unknown[] };
    const answer = (result: unknown) => HttpResponse.json({ jsonrpc: '2.0', id, result });
    switch (method) {
      case 'clique_getSigners':
        expect(params).toEqual([numberToHex(HEAD)]);
        // geth answers in snapshot order; ChainLens sorts for itself.
        return answer([...signers].reverse().map((s) => privateKeyToAccount(byAddress.get(s)!).address));
      case 'eth_getBlockByHash':
        return answer(headers.get(params[0] as Hex) ?? null);
      case 'eth_getBlockByNumber':
        // A pre-merge geth has no finalized block.
        return HttpResponse.json({ jsonrpc: '2.0', id, error: { code: -32000, message: 'finalized block not found' } });
      default:
        return HttpResponse.json({ jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${method} does not exist/is not available` } });
    }
  }),
);

const storage = { getBlockByNumber: async (n: bigint) => stored.find((b) => b.number === n) ?? null } as unknown as Storage;
const chain = createChainClient({ rpcUrl: NODE, timeoutMs: 2_000 });
const source = () =>
  new CliqueConsensusSource(chain, new EvmConsensusSource(storage, new EvmFinality(chain, { requiredConfirmations: REQUIRED_CONFIRMATIONS, cacheMs: 0 }), REQUIRED_CONFIRMATIONS), { epochBlocks: 10 });

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  for (let n = HEAD; n >= 1n; n--) {
    const key = outOfTurn.get(n) ?? signerKeys[Number(n % 3n)]!;
    const header = await sealCliqueHeader(unsignedCliqueHeader(n, { difficulty: outOfTurn.has(n) ? '0x1' : '0x2' }), key);
    const hash = keccak256(header.extraData as Hex);
    headers.set(hash, header);
    stored.push({
      number: n, hash, parentHash: header.parentHash as Hex, timestamp: BigInt(header.timestamp), miner: `0x${'00'.repeat(20)}`, gasUsed: 21_000n, gasLimit: 30_000_000n,
      baseFeePerGas: 7n, difficulty: BigInt(header.difficulty), size: 600n, stateRoot: header.stateRoot as Hex, transactionsRoot: header.transactionsRoot as Hex,
      receiptsRoot: header.receiptsRoot as Hex, extraData: header.extraData as Hex, transactionCount: 1,
    });
  }
});
afterAll(() => server.close());

describe('clique consensus source', () => {
  it('lists the authorized signers with the blocks they sealed, recovered from the seals, and their missed turns', async () => {
    const { epoch, validators } = await source().validators(stored);
    expect(epoch).toBe(3n);
    // Blocks 1..30: ten turns each; block 7's and 8's in-turn signers missed theirs.
    const sealedBy = (s: Hex) => stored.filter((b) => (outOfTurn.get(b.number) ?? signerKeys[Number(b.number % 3n)]) === byAddress.get(s)).length;
    expect(validators).toEqual([
      ...signers.map((address, i) => ({
        address, votingPower: null, proposerPriority: null, isActive: true, totalBlocks: sealedBy(address!),
        expectedBlocks: 10, missedBlocks: [7, 8].filter((n) => n % 3 === i).length + (i === 0 ? 1 : 0),
      })),
      { address: formerSigner, votingPower: null, proposerPriority: null, isActive: false, totalBlocks: 1, expectedBlocks: null, missedBlocks: null },
    ]);
  });

  it('names the sealer of the head and the signer due next', async () => {
    const consensus = await source().consensus(stored);
    expect(consensus).toMatchObject({
      algorithm: 'clique', epoch: 3n, epochBlocks: 10n, currentValidator: signers[Number(HEAD % 3n)], nextValidator: signers[Number((HEAD + 1n) % 3n)],
      slashingEnabled: false, totalStaked: null, minStake: null,
    });
  });

  it('finalizes by depth where geth has no finalized block, the seal its proof', async () => {
    const clique = source();
    const block = stored.find((b) => b.number === 26n)!;
    const young = await clique.finality(block, 29n);
    expect(young).toMatchObject({ isFinalized: false, requiredConfirmations: REQUIRED_CONFIRMATIONS, finalizedAt: null });
    expect(young.proof).toEqual({ signatures: [`0x${block.extraData.slice(-130)}`], validatorCount: 1, votingPower: null });
    const final = await clique.finality(block, HEAD);
    expect(final).toMatchObject({ isFinalized: true, requiredConfirmations: REQUIRED_CONFIRMATIONS, finalizedAt: stored.find((b) => b.number === HEAD)!.timestamp });
  });
});
