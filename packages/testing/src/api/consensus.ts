import { expect, it } from 'vitest';
import { errorEnvelope, get, indexedToHead, waitFor, type ApiContext } from './context.js';

/** Blocks of the default `consensus.validatorWindowBlocks`. */
const WINDOW = 100n;

async function mine(context: ApiContext, blocks: number): Promise<void> {
  await context.chain.publicClient.request({ method: 'anvil_mine' as never, params: [`0x${blocks.toString(16)}`] as never });
}

/** The node's `finalized` block number. */
async function nodeFinalized(context: ApiContext): Promise<bigint> {
  return (await context.chain.publicClient.getBlock({ blockTag: 'finalized' })).number;
}

/** `/blockchain/validators`, `/blockchain/consensus/info`, `/blockchain/finality/:blockNumber` with the default `evm` source. */
export function consensusTests(ctx: () => ApiContext): void {
  it('GET /blockchain/validators lists the producers of the newest indexed blocks, with nulls for what headers cannot tell', async () => {
    const head = await indexedToHead(ctx());
    const produced = new Map<string, number>();
    for (let n = head; n >= 0n && n > head - WINDOW; n--) {
      const miner = (await ctx().chain.publicClient.getBlock({ blockNumber: n })).miner.toLowerCase();
      produced.set(miner, (produced.get(miner) ?? 0) + 1);
    }
    const { status, body } = await get(ctx(), '/api/v1/blockchain/validators');
    expect(status).toBe(200);
    expect(body.result).toEqual({
      totalValidators: produced.size,
      activeValidators: produced.size,
      epoch: null,
      validators: [...produced].map(([address, totalBlocks]) => ({
        address, label: null, totalBlocks, isActive: true, votingPower: null, proposerPriority: null, uptime: null, missedBlocks: null,
        commission: null, stakingAmount: null, delegators: null, website: null, identity: null, details: null,
      })),
    });
  });

  it('GET /blockchain/consensus/info tells the newest indexed block and its producer, and nothing it cannot know', async () => {
    const head = await indexedToHead(ctx());
    const block = await ctx().chain.publicClient.getBlock({ blockNumber: head });
    const { body } = await get(ctx(), '/api/v1/blockchain/consensus/info');
    expect(body.result).toMatchObject({
      consensusAlgorithm: null, epoch: null, epochBlocks: null, currentBlock: Number(head), currentValidator: block.miner.toLowerCase(),
      nextValidator: null, totalStaked: null, minStake: null, slashingEnabled: null, governanceEnabled: null,
    });
    expect(Number.isInteger(body.result.blockTime)).toBe(true);
  });

  it('GET /blockchain/finality/:blockNumber follows the node\'s finalized tag: not final at the head, final once the tag passes it', async () => {
    const head = await indexedToHead(ctx());
    const young = await get(ctx(), `/api/v1/blockchain/finality/${head}`);
    expect(young.status).toBe(200);
    expect(young.body.result).toMatchObject({ blockNumber: head.toString(), isFinalized: false, confirmations: 1, finalizedAt: null, finalityProof: null });
    expect((await get(ctx(), '/api/v1/blockchain/finality/latest')).body.result).toEqual(young.body.result);
    await mine(ctx(), 70);
    const newHead = await indexedToHead(ctx());
    // The tag is read at most once a second: wait for a read after the mining.
    const old = await waitFor(async () => {
      const answer = await get(ctx(), `/api/v1/blockchain/finality/${head}`);
      return answer.body.result.isFinalized === true ? answer : null;
    }, 'the finalized tag to pass the block');
    const finalized = await nodeFinalized(ctx());
    expect(finalized).toBeGreaterThanOrEqual(head);
    expect(old.body.result).toEqual({
      blockNumber: head.toString(), isFinalized: true, confirmations: Number(newHead - head + 1n),
      requiredConfirmations: Number(newHead - finalized + 1n), finalizedAt: null, finalityProof: null,
    });
    const past = await get(ctx(), `/api/v1/blockchain/finality/${finalized + 1n}`);
    expect(past.body.result.isFinalized).toBe(false);
    const latest = await get(ctx(), '/api/v1/blockchain/finality/latest');
    expect(latest.body.result).toMatchObject({ blockNumber: newHead.toString(), isFinalized: false, confirmations: 1, requiredConfirmations: Number(newHead - finalized + 1n) });
  });

  it('GET /blockchain/finality rejects a malformed block number with 400 and one beyond the indexed head with 404', async () => {
    for (const bad of ['abc', '-1', '1.5', '0x10', '01', 'Latest']) {
      const answer = await get(ctx(), `/api/v1/blockchain/finality/${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body).toEqual(errorEnvelope('Error! Invalid block number'));
    }
    const head = await indexedToHead(ctx());
    for (const beyond of [head + 1n, 99_999_999n]) {
      const missing = await get(ctx(), `/api/v1/blockchain/finality/${beyond}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(errorEnvelope('Error! Block not found'));
    }
  });
}
