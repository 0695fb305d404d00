import fc from 'fast-check';
import { keccak256, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { BranchWriter, Sequence } from './reorg-branch.js';
import { expectCanonical, expectReorgStream, readEverything, type NodeBlock, type Orphans } from './reorg-canonical.js';
import { expectSupplyOfNode, reorgReproTests } from './reorg-repros.js';
import { startReorgRun, type ReorgRun, type ReorgSuiteOptions } from './reorg-run.js';
import { fuzzSeed } from './seed.js';

export type { ReorgSuiteOptions } from './reorg-run.js';

/**
 * When a round's reorg comes: after the doomed blocks were indexed and every record read (so
 * whatever keeps records has them); right after they were mined; once the indexer has half of
 * them; or while it catches up on a burst of blocks mined before them.
 */
const TIMINGS = ['settled', 'immediate', 'halfway', 'burst'] as const;
type Timing = (typeof TIMINGS)[number];

/** How the node is made to reorganise. */
const METHODS = ['anvil_reorg', 'evm_revert'] as const;
type Method = (typeof METHODS)[number];

/** One round of the plan. */
export interface ReorgRound {
  /** Blocks of activity mined first, on the branch that stays. */
  before: number;
  /** Blocks the reorg replaces (1–8). */
  depth: number;
  /** Blocks the winning branch has beyond `depth` (`anvil_reorg` replaces at the same height, then these follow). */
  longer: number;
  timing: Timing;
  method: Method;
  /** Which block of the winning branch carries the transaction moved from the first doomed block. */
  movedTo: number;
}

/** Blocks of the catch-up burst. */
const BURST = 24;

/** The seeded plan of `count` rounds: every timing and method in turn, the rest drawn. */
export function reorgPlan(seed: number, count: number): ReorgRound[] {
  const drawn = fc.sample(
    fc.record({ before: fc.integer({ min: 0, max: 2 }), depth: fc.integer({ min: 1, max: 8 }), longer: fc.integer({ min: 0, max: 2 }), movedTo: fc.nat() }),
    { seed, numRuns: count },
  );
  return drawn.map((round, i) => ({
    ...round,
    timing: TIMINGS[i % TIMINGS.length]!,
    method: METHODS[Math.floor(i / TIMINGS.length) % METHODS.length]!,
    movedTo: round.movedTo % (round.depth + round.longer),
  }));
}

/**
 * The reorg suite: the replays of {@link reorgReproTests}, then seeded rounds of ETH, ERC-20
 * (with mints) and ERC-721 activity, each ending in a reorg of depth 1–8 (by `anvil_reorg` or
 * by `evm_snapshot`/`evm_revert` and a branch at least as long) at one of four timings;
 * afterwards every record the API serves equals the node's, and the `blocks` stream announced
 * every reorg and took back every block it delivered that the node orphaned. `FUZZ_SEED`
 * replays another seed.
 */
export function reorgSuite(options: ReorgSuiteOptions): void {
  const count = options.reorgs ?? 24;
  describe(`reorgs (${options.name})`, () => {
    reorgReproTests(options);
    const seed = fuzzSeed();
    it(`serves only the node's records after ${count} seeded reorgs of depth 1 to 8 at four timings (seed ${seed}; replay with FUZZ_SEED=${seed})`, async () => {
      const run = await startReorgRun(options);
      try {
        const orphans = await runPlan(run, reorgPlan(seed, count));
        await run.indexed();
        await expectReorgStream(run, await expectCanonical(run, orphans), orphans);
      } finally {
        await run.close();
      }
    }, 240_000);
  });
}

/**
 * Plays the rounds, checking the ERC-20's supply and holder shares after each; resolves what they
 * orphaned and moved ({@link Orphans}).
 */
export async function runPlan(run: ReorgRun, plan: readonly ReorgRound[]): Promise<Orphans> {
  await run.rpc('evm_setAutomine', [false]);
  const sequence = new Sequence();
  const orphans: Orphans = { blocks: [], transactions: [], moved: [], settled: [] };
  // anvil can lose contract code when an anvil_reorg forks at or below the last evm_revert block (FACTS.md).
  let lastRevert = -1n;
  for (const round of plan) {
    const head = (await run.head()).number;
    const grow = new BranchWriter(run, head, sequence);
    for (let i = 0; i < round.before; i++) await grow.mine(await grow.block());
    if (round.timing === 'burst') await run.rpc('anvil_mine', [`0x${BURST.toString(16)}`]);
    if (round.method === 'anvil_reorg') {
      const below = lastRevert - (await run.head()).number;
      if (below >= 0n) await run.rpc('anvil_mine', [`0x${(below + 1n).toString(16)}`]);
    }
    const ancestor = (await run.head()).number;
    const snapshot = round.method === 'evm_revert' ? await run.rpc<Hex>('evm_snapshot') : null;

    const doomed = new BranchWriter(run, ancestor, sequence);
    const mover = await doomed.moverTransfer();
    for (let i = 0; i < round.depth; i++) {
      if (round.timing === 'halfway' && i === Math.ceil(round.depth / 2)) await run.indexed();
      await doomed.mine([...(i === 0 ? [mover] : []), ...(await doomed.block())]);
    }
    if (round.timing === 'settled') {
      await run.indexed();
      await readEverything(run);
    }
    const dropped = await Promise.all(Array.from({ length: round.depth }, (_, i) => run.rpc<NodeBlock>('eth_getBlockByNumber', [`0x${(ancestor + BigInt(i) + 1n).toString(16)}`, true])));

    const winning = new BranchWriter(run, ancestor, sequence);
    const branch: Hex[][] = [];
    for (let i = 0; i < round.depth + round.longer; i++) branch.push([...(i === round.movedTo ? [mover] : []), ...(await winning.block())]);
    if (snapshot !== null) {
      await run.rpc('evm_revert', [snapshot]);
      lastRevert = ancestor;
      for (const raws of branch) await winning.mine(raws);
    } else {
      await run.rpc('anvil_reorg', [round.depth, branch.slice(0, round.depth).flatMap((raws, offset) => raws.map((raw) => [raw, offset]))]);
      for (const raws of branch.slice(round.depth)) await winning.mine(raws);
    }
    expect((await run.head()).number, 'the winning branch’s head').toBe(ancestor + BigInt(branch.length));
    orphans.blocks.push(...dropped.map((block) => block.hash));
    orphans.transactions.push(...dropped.flatMap((block) => block.transactions.map((tx) => tx.hash)));
    orphans.moved.push(keccak256(mover));
    if (round.timing === 'settled') orphans.settled.push({ ancestor, removed: dropped.map((block) => block.hash).reverse() });
    // What a round can leave behind shows at the head it ends on (a same-height reorg's above all).
    await run.indexed();
    await expectSupplyOfNode(run, run.demo.contracts.token.toLowerCase() as Hex);
  }
  return orphans;
}
