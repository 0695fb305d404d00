import { createChainClient, GasOracleService } from '@chainlens/core';
import { startAnvil, type AnvilInstance } from '@chainlens/devchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc } from './helpers.js';

describe('GasOracleService on a chain without base fees', () => {
  let node: AnvilInstance;
  beforeAll(async () => {
    node = await startAnvil({ args: ['--hardfork', 'berlin'] });
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('offers the node’s gas price for every speed, with a base fee of 0', async () => {
    const oracle = await new GasOracleService(createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 })).oracle();
    const gasPrice = BigInt(await rpc<string>(node.rpcUrl, 'eth_gasPrice')).toString();
    expect(oracle).toEqual({
      lastBlock: BigInt(await rpc<string>(node.rpcUrl, 'eth_blockNumber')).toString(),
      safeGasPrice: gasPrice,
      proposeGasPrice: gasPrice,
      fastGasPrice: gasPrice,
      suggestBaseFee: '0',
      gasUsedRatio: [],
    });
    expect(BigInt(gasPrice)).toBeGreaterThan(0n);
  });
});
