import { describe, expect, it } from 'vitest';
import { createEventHub, type ReorgEvent } from '../events/index.js';
import type { BlockBundle, Hex } from '../storage/index.js';
import { makeChain } from '@chainlens/testing';
import { BlockLineage, logsScope, tokenScope, verificationScope } from './block-lineage.js';

const TOKEN_A = `0x${'a'.repeat(40)}` as Hex;
const TOKEN_B = `0x${'b'.repeat(40)}` as Hex;
const TOKEN_C = `0x${'c'.repeat(40)}` as Hex;
/** Any transfer record: the lineage reads only its token. */
const TRANSFER = makeChain({ blocks: 8, txPerBlock: 4 }).flatMap((bundle) => bundle.tokenTransfers)[0]!;
/** Any log record: the lineage reads only its address. */
const LOG = makeChain({ blocks: 8, txPerBlock: 4 }).flatMap((bundle) => bundle.logs)[0]!;

/** A chain of `blocks` whose block i transfers exactly the tokens `tokens[i]` (none when absent) and holds no other log. */
function chainMoving(blocks: number, tokens: Hex[][], options: { seed?: string; parent?: BlockBundle['block'] } = {}): BlockBundle[] {
  const chain = makeChain({ blocks, txPerBlock: 1, ...options });
  chain.forEach((bundle, i) => {
    bundle.tokenTransfers = (tokens[i] ?? []).map((token) => ({ ...TRANSFER, token }));
    bundle.logs = [];
  });
  return chain;
}

function setup(maxScopes?: number) {
  const hub = createEventHub();
  const lineage = new BlockLineage(hub, maxScopes);
  return { hub, lineage, hear: (bundle: BlockBundle) => hub.emit('block', bundle) };
}

describe('BlockLineage', () => {
  it('marks answers only at the tip of the blocks it heard', () => {
    const { lineage, hear } = setup();
    const chain = chainMoving(2, []);
    expect(lineage.mark(chain[0]!.block.hash)).toBeNull();
    hear(chain[0]!);
    expect(lineage.mark(chain[0]!.block.hash)).not.toBeNull();
    // A head read from storage that this instance has not heard: nothing is reused there.
    expect(lineage.mark(chain[1]!.block.hash)).toBeNull();
  });

  it('keeps an answer across blocks that do not touch its scopes, and outdates it at the first that does', () => {
    const { lineage, hear } = setup();
    const chain = chainMoving(4, [[], [TOKEN_B], [], [TOKEN_A]]);
    hear(chain[0]!);
    const mark = lineage.mark(chain[0]!.block.hash)!;
    hear(chain[1]!);
    hear(chain[2]!);
    expect(lineage.unchangedSince(mark, chain[2]!.block.hash, [tokenScope(TOKEN_A)])).toBe(true);
    expect(lineage.unchangedSince(mark, chain[2]!.block.hash, [tokenScope(TOKEN_B)])).toBe(false);
    // Only at the tip: an older head of the line is not where the answer is served.
    expect(lineage.unchangedSince(mark, chain[1]!.block.hash, [tokenScope(TOKEN_A)])).toBe(false);
    hear(chain[3]!);
    expect(lineage.unchangedSince(mark, chain[3]!.block.hash, [tokenScope(TOKEN_A)])).toBe(false);
    // An answer computed after the touching block is current again.
    expect(lineage.unchangedSince(lineage.mark(chain[3]!.block.hash)!, chain[3]!.block.hash, [tokenScope(TOKEN_A)])).toBe(true);
  });

  it('names a token’s scope by its address in any case', () => {
    expect(tokenScope(TOKEN_A.toUpperCase().replace('0X', '0x'))).toBe(tokenScope(TOKEN_A));
  });

  it('outdates the answers of a contract’s logs at a block holding one of them, and at its verification between blocks', () => {
    const { hub, lineage, hear } = setup();
    const chain = chainMoving(3, []);
    const emitter = TOKEN_B;
    chain[1]!.logs = [{ ...LOG, address: emitter }];
    const scopes = [logsScope(emitter), verificationScope(emitter.toUpperCase().replace('0X', '0x'))];
    hear(chain[0]!);
    const beforeLog = lineage.mark(chain[0]!.block.hash)!;
    hear(chain[1]!);
    expect(lineage.unchangedSince(beforeLog, chain[1]!.block.hash, scopes)).toBe(false);
    const beforeVerification = lineage.mark(chain[1]!.block.hash)!;
    expect(lineage.unchangedSince(beforeVerification, chain[1]!.block.hash, scopes)).toBe(true);
    hub.emit('verified', { address: emitter });
    // At the same head: the verification alone outdates it, and an answer computed after it holds.
    expect(lineage.unchangedSince(beforeVerification, chain[1]!.block.hash, scopes)).toBe(false);
    const afterVerification = lineage.mark(chain[1]!.block.hash)!;
    expect(lineage.unchangedSince(afterVerification, chain[1]!.block.hash, scopes)).toBe(true);
    // Another contract's verification touches nothing of it.
    hub.emit('verified', { address: TOKEN_C });
    expect(lineage.unchangedSince(afterVerification, chain[1]!.block.hash, scopes)).toBe(true);
  });

  it('starts a new line at a reorg, and at a block that is not the tip’s child', () => {
    const { hub, lineage, hear } = setup();
    const chain = chainMoving(3, []);
    hear(chain[0]!);
    const first = lineage.mark(chain[0]!.block.hash)!;
    hear(chain[1]!);
    const reorg: ReorgEvent = { commonAncestor: { blockNumber: 0n, blockHash: chain[0]!.block.hash }, removedBlockHashes: [chain[1]!.block.hash] };
    hub.emit('reorg', reorg);
    expect(lineage.mark(chain[1]!.block.hash)).toBeNull();
    const fork = chainMoving(2, [], { seed: 'fork', parent: chain[0]!.block });
    hear(fork[0]!);
    expect(lineage.unchangedSince(first, fork[0]!.block.hash, [])).toBe(false);

    const second = lineage.mark(fork[0]!.block.hash)!;
    // A missed block (the heard one's parent is not the tip): nothing earlier is trusted.
    const afterGap = chainMoving(1, [], { seed: 'gap', parent: fork[1]!.block })[0]!;
    hear(afterGap);
    expect(lineage.unchangedSince(second, afterGap.block.hash, [])).toBe(false);
    expect(lineage.unchangedSince(lineage.mark(afterGap.block.hash)!, afterGap.block.hash, [])).toBe(true);
  });

  it('counts forgotten scopes as touched at the newest forgotten block, so it never keeps too much', () => {
    const { lineage, hear } = setup(1);
    const chain = chainMoving(3, [[], [TOKEN_A], [TOKEN_B]]);
    hear(chain[0]!);
    const beforeA = lineage.mark(chain[0]!.block.hash)!;
    hear(chain[1]!);
    const afterA = lineage.mark(chain[1]!.block.hash)!;
    hear(chain[2]!);
    // One scope is kept: TOKEN_A made way for TOKEN_B, so every other scope counts as touched at block 1.
    const tip = chain[2]!.block.hash;
    expect(lineage.unchangedSince(beforeA, tip, [tokenScope(TOKEN_C)])).toBe(false);
    expect(lineage.unchangedSince(afterA, tip, [tokenScope(TOKEN_C)])).toBe(true);
    expect(lineage.unchangedSince(afterA, tip, [tokenScope(TOKEN_B)])).toBe(false);
  });
});
