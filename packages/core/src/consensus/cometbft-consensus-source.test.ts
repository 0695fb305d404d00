import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '../errors/index.js';
import type { Hex, StoredBlock } from '../storage/index.js';
import { CometBftConsensusSource } from './cometbft-consensus-source.js';
import { CometBftRpc, CometBftRpcError } from './cometbft-rpc.js';

const RPC = 'http://cometbft.test:26657';

/** A CometBFT consensus address (uppercase hex, no 0x) made from a number. */
const cometAddress = (i: number) => i.toString(16).toUpperCase().padStart(40, '0');

/** 150 validators, so `/validators` answers two pages of at most 100; power falls with the index. */
const SET = Array.from({ length: 150 }, (_, i) => ({
  address: cometAddress(i + 1),
  pub_key: { type: 'tendermint/PubKeyEd25519', value: Buffer.alloc(32, i + 1).toString('base64') },
  voting_power: String(1_000 - i),
  proposer_priority: String((i % 2 === 0 ? -1 : 1) * i * 37),
}));
const TOTAL_POWER = SET.reduce((sum, v) => sum + BigInt(v.voting_power), 0n);
const LATEST = 120;

const rpcAnswer = (result: unknown) => HttpResponse.json({ jsonrpc: '2.0', id: -1, result });
const header = (height: number) => ({
  version: { block: '11', app: '0' },
  chain_id: 'evmos_9000-1',
  height: String(height),
  time: new Date(Date.UTC(2024, 0, 1, 0, 0, height)).toISOString().replace('Z', '123456Z'),
  last_block_id: { hash: 'AA'.repeat(32), parts: { total: 1, hash: 'BB'.repeat(32) } },
  app_hash: 'CC'.repeat(32),
  // Block h is proposed by validator (h mod 3) + 1.
  proposer_address: cometAddress((height % 3) + 1),
});

const VOTES_FROM = Date.UTC(2024, 0, 1, 0, 10);
/** RFC 3339 with nanoseconds, as CometBFT writes it: validator `i` votes `i` seconds after the first. */
const voteTime = (i: number) => new Date(VOTES_FROM + i * 1_000).toISOString().replace('Z', `${String(i).padStart(6, '0')}Z`);

/** Votes of block `height`: the first `signers` validators commit (one second apart), the rest are absent. */
function commitOf(height: number, signers: number) {
  return {
    signed_header: {
      header: header(height),
      commit: {
        height: String(height),
        round: 0,
        block_id: { hash: 'DD'.repeat(32), parts: { total: 1, hash: 'EE'.repeat(32) } },
        signatures: SET.map((v, i) =>
          i < signers
            ? { block_id_flag: 2, validator_address: v.address, timestamp: voteTime(i), signature: Buffer.alloc(64, i + 1).toString('base64') }
            : { block_id_flag: 1, validator_address: '', timestamp: '0001-01-01T00:00:00Z', signature: null },
        ),
      },
    },
    canonical: true,
  };
}

let signersOfCommits = SET.length;
const server = setupServer(
  http.get(`${RPC}/validators`, ({ request }) => {
    const query = new URL(request.url).searchParams;
    const page = Number(query.get('page'));
    const perPage = Number(query.get('per_page'));
    return rpcAnswer({ block_height: query.get('height'), validators: SET.slice((page - 1) * perPage, page * perPage), count: String(Math.min(perPage, SET.length - (page - 1) * perPage)), total: String(SET.length) });
  }),
  http.get(`${RPC}/blockchain`, ({ request }) => {
    const query = new URL(request.url).searchParams;
    const min = Number(query.get('minHeight'));
    const max = Number(query.get('maxHeight'));
    expect(max - min).toBeLessThan(20);
    const metas = [];
    for (let h = max; h >= min; h--) metas.push({ block_id: { hash: 'DD'.repeat(32) }, block_size: '1000', header: header(h), num_txs: '0' });
    return rpcAnswer({ last_height: String(LATEST), block_metas: metas });
  }),
  http.get(`${RPC}/commit`, ({ request }) => rpcAnswer(commitOf(Number(new URL(request.url).searchParams.get('height')), signersOfCommits))),
  http.get(`${RPC}/status`, () =>
    rpcAnswer({
      node_info: { network: 'evmos_9000-1', version: '0.38.12', moniker: 'node0' },
      sync_info: { latest_block_hash: 'AA'.repeat(32), latest_app_hash: 'CC'.repeat(32), latest_block_height: String(LATEST), latest_block_time: '2024-01-01T00:02:00Z', catching_up: false },
      validator_info: { address: cometAddress(1), pub_key: SET[0]!.pub_key, voting_power: SET[0]!.voting_power },
    }),
  ),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  signersOfCommits = SET.length;
});
afterAll(() => server.close());

/** Indexed EVM headers of heights `from`..`to`, newest first, as storage lists them. */
function window(from: number, to: number): StoredBlock[] {
  const blocks: StoredBlock[] = [];
  for (let n = to; n >= from; n--) blocks.push(block(n));
  return blocks;
}

function block(n: number): StoredBlock {
  const hash = `0x${n.toString(16).padStart(64, '0')}` as Hex;
  return {
    number: BigInt(n), hash, parentHash: hash, timestamp: BigInt(1_704_067_200 + n), miner: `0x${'11'.repeat(20)}`, gasUsed: 0n, gasLimit: 30_000_000n,
    baseFeePerGas: 7n, difficulty: 0n, size: 600n, stateRoot: `0x${'cc'.repeat(32)}`, transactionsRoot: hash, receiptsRoot: hash, extraData: '0x', transactionCount: 0,
  };
}

const source = () => new CometBftConsensusSource(new CometBftRpc(RPC, 2_000));

describe('CometBFT consensus source', () => {
  it('lists every validator with the voting power and proposer priority CometBFT reports, across pages', async () => {
    const { epoch, validators } = await source().validators(window(61, 90));
    expect(epoch).toBeNull();
    expect(validators).toHaveLength(150);
    expect(validators[0]).toEqual({ address: `0x${cometAddress(1).toLowerCase()}`, votingPower: 1_000n, proposerPriority: 0n, isActive: true, totalBlocks: 10, expectedBlocks: null, missedBlocks: null });
    expect(validators[149]).toMatchObject({ votingPower: 851n, proposerPriority: BigInt(149 * 37), totalBlocks: 0 });
  });

  it('counts proposals from the CometBFT headers of the window', async () => {
    const { validators } = await source().validators(window(1, 45));
    // Heights 1..45: 15 each for validators 1, 2 and 3 (h mod 3).
    expect(validators.slice(0, 3).map((v) => v.totalBlocks)).toEqual([15, 15, 15]);
    expect(validators.slice(3).every((v) => v.totalBlocks === 0)).toBe(true);
  });

  it('names the current proposer and leaves what CometBFT cannot tell empty', async () => {
    const consensus = await source().consensus(window(80, 100));
    expect(consensus).toEqual({
      algorithm: 'cometbft', epoch: null, epochBlocks: null, currentValidator: `0x${cometAddress((100 % 3) + 1).toLowerCase()}`,
      nextValidator: null, totalStaked: null, minStake: null, slashingEnabled: null, governanceEnabled: null,
    });
  });

  it('makes a block final once its commit carries more than two thirds of the voting power, the signatures its proof', async () => {
    const finality = await source().finality(block(100));
    expect(finality.isFinalized).toBe(true);
    expect(finality.requiredConfirmations).toBe(1);
    expect(finality.proof!.validatorCount).toBe(150);
    expect(finality.proof!.votingPower).toBe(TOTAL_POWER);
    expect(finality.proof!.signatures[0]).toBe(`0x${'01'.repeat(64)}`);
    expect(finality.proof!.signatures.every((s) => /^0x[0-9a-f]{128}$/.test(s))).toBe(true);
    // Votes are one second apart in set order; the threshold is crossed at the first k with power > 2/3.
    let power = 0n;
    let k = 0;
    while ((power += BigInt(SET[k]!.voting_power)) * 3n <= TOTAL_POWER * 2n) k++;
    expect(finality.finalizedAt).toBe(BigInt((VOTES_FROM + k * 1_000) / 1_000));
  });

  it('does not call a block final when its signers hold two thirds or less', async () => {
    signersOfCommits = 90;
    const finality = await source().finality(block(100));
    const signedPower = SET.slice(0, 90).reduce((sum, v) => sum + BigInt(v.voting_power), 0n);
    expect(signedPower * 3n).toBeLessThanOrEqual(TOTAL_POWER * 2n);
    expect(finality).toMatchObject({ isFinalized: false, finalizedAt: null });
    expect(finality.proof).toMatchObject({ validatorCount: 90, votingPower: signedPower });
  });

  it('calls every indexed block final up to the height CometBFT has committed', async () => {
    const cometbft = source();
    expect(await cometbft.finalizedBlock(100n)).toBe(100n);
    expect(await cometbft.finalizedBlock(500n)).toBe(BigInt(LATEST));
    expect(await cometbft.finalizedBlock(null)).toBeNull();
  });

  it('reports an error answer of the CometBFT RPC as an unavailable upstream', async () => {
    server.use(
      http.get(`${RPC}/commit`, () =>
        HttpResponse.json({ jsonrpc: '2.0', id: -1, error: { code: -32603, message: 'Internal error', data: 'height 3 is not available, lowest height is 1000' } }, { status: 500 }),
      ),
    );
    const failure = await source().finality(block(3)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CometBftRpcError);
    expect(failure).toBeInstanceOf(UpstreamUnavailableError);
    expect((failure as CometBftRpcError).detail).toBe('Internal error: height 3 is not available, lowest height is 1000');
  });

  it('reports an unreachable CometBFT RPC as an unavailable upstream', async () => {
    server.use(http.get(`${RPC}/status`, () => HttpResponse.error()));
    await expect(source().finalizedBlock(1n)).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});
