import { deployDemo, startAnvil, startDemoActivity, type DemoContracts } from '@chainlens/devchain';
import type { ExplorerConfig } from '@chainlens/core';
import type { Logger } from 'pino';

/** The embedded dev chain of `npm start`: anvil with demo contracts and ongoing activity. */
export interface EmbeddedChain {
  rpcUrl: string;
  /** Prices DEMO from its DEMO/DUSD pool on the demo's Uniswap V2 style DEX. */
  prices: NonNullable<ExplorerConfig['prices']>;
  /** The demo contracts' addresses, by role. */
  contracts: DemoContracts<string>;
  stop(): Promise<void>;
}

/**
 * Starts anvil (a block a second), deploys the demo contracts (a DEX pool among them) and keeps
 * transactions, swaps included, flowing.
 */
export async function startEmbeddedChain(logger: Logger): Promise<EmbeddedChain> {
  const anvil = await startAnvil({ blockTime: 1 });
  try {
    logger.info({ rpcUrl: anvil.rpcUrl }, 'embedded dev chain started; deploying demo contracts');
    const deployment = await deployDemo({ rpcUrl: anvil.rpcUrl });
    logger.info({ contracts: deployment.contracts }, 'demo contracts deployed');
    const activity = startDemoActivity({ rpcUrl: anvil.rpcUrl }, deployment, {
      onError: (error: unknown) => logger.warn({ err: error }, 'demo activity transaction failed'),
    });
    return {
      rpcUrl: anvil.rpcUrl,
      contracts: deployment.contracts,
      prices: {
        quoteToken: deployment.contracts.quoteToken,
        quoteTokenUsd: '1',
        dexes: [{ name: 'DemoSwap', factory: deployment.contracts.dexFactory }],
      },
      async stop() {
        await activity.stop();
        await anvil.stop();
      },
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
