import { pino } from 'pino';
import { formatUnits, parseAbi } from 'viem';
import { afterAll, expect, it } from 'vitest';
import { createExplorer } from '@chainlens/core';
import { waitFor, type ApiContext } from './context.js';
import { etherscan } from './etherscan.js';
import { FAST_INDEXER, demoPrices } from '../explorer-settings.js';

const PAIR = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)']);

/** `stats/ethprice` through an explorer whose price source names a wrapped native token. */
export function etherscanPriceTests(ctx: () => ApiContext): void {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('stats/ethprice answers the wrapped token’s pool price at the indexed head and that block’s time, with no BTC rate it cannot know', async () => {
    const { chain, demo } = ctx();
    // The demo has no wrapped native coin: its DEMO token, priced by the demo pool, stands in for one.
    const explorer = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: await ctx().options.storage(),
      logger: pino({ level: 'silent' }),
      indexer: FAST_INDEXER,
      prices: { ...demoPrices(demo), nativeToken: demo.contracts.token },
    });
    const served = await ctx().options.serve(explorer);
    closers.push(async () => {
      await served.close();
      await explorer.close();
    });
    await explorer.start();
    const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    const at = await waitFor(async () => {
      const cursor = await explorer.storage.getCursor();
      return cursor && cursor.number >= head ? cursor.number : null;
    }, `indexing block ${head}`);

    const [reserve0, reserve1] = await chain.publicClient.readContract({ address: demo.contracts.dexPair, abi: PAIR, functionName: 'getReserves', blockNumber: at });
    const demoIsToken0 = BigInt(demo.contracts.token) < BigInt(demo.contracts.quoteToken);
    const [demoReserve, dusdReserve] = demoIsToken0 ? [reserve0, reserve1] : [reserve1, reserve0];
    const { timestamp } = await chain.publicClient.getBlock({ blockNumber: at });
    const reply = await etherscan({ ...ctx(), url: served.url }, { module: 'stats', action: 'ethprice' });
    expect(reply.body).toEqual({
      status: '1',
      message: 'OK',
      result: { ethusd: formatUnits((dusdReserve * 10n ** 18n) / demoReserve, 18), ethusd_timestamp: String(timestamp) },
    });
  });
}
