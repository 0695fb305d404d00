import { toEventSelector, type Hash, type Hex } from 'viem';
import { expect, it } from 'vitest';
import { rpcCall } from '@chainlens/devchain';
import { indexedToHead, waitFor, type ApiContext } from './context.js';
import { etherscan, etherscanHex } from './etherscan.js';

/** A log as the node's `eth_getLogs` answers it. */
interface NodeLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  logIndex: Hex;
  transactionHash: Hash;
  transactionIndex: Hex;
}

type TopicFilter = { topics: (Hex | undefined)[]; operators: Record<string, 'and' | 'or'> };

const TRANSFER = toEventSelector('Transfer(address,address,uint256)');
const PAIRS = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]] as const;
const notOk = (result: string) => ({ status: '0', message: 'NOTOK', result });
const noRecords = { status: '0', message: 'No records found', result: [] };

/** Every log of the chain up to `head`, from the node, optionally filtered as eth_getLogs filters. */
async function nodeLogs(context: ApiContext, head: bigint, filter: Record<string, unknown> = {}): Promise<NodeLog[]> {
  return rpcCall<NodeLog[]>(context.chain.rpcUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: `0x${head.toString(16)}`, ...filter }]);
}

/** Etherscan's pair rule, on the node's logs: one topic given must match; with more, every pair of given topics holds as its operator says. */
function meets(log: NodeLog, { topics, operators }: TopicFilter): boolean {
  const given = [0, 1, 2, 3].filter((position) => topics[position] !== undefined);
  const has = (position: number) => log.topics[position] === topics[position];
  if (given.length === 1) return has(given[0]!);
  return PAIRS.every(([a, b]) => topics[a] === undefined || topics[b] === undefined || ((operators[`topic${a}_${b}_opr`] ?? 'and') === 'and' ? has(a) && has(b) : has(a) || has(b)));
}

/** The request parameters of a topic filter. */
function topicParams({ topics, operators }: TopicFilter): Record<string, string> {
  const params: Record<string, string> = { ...operators };
  topics.forEach((topic, position) => {
    if (topic !== undefined) params[`topic${position}`] = topic;
  });
  return params;
}

const idOf = (log: { transactionHash: string; logIndex: string }) => `${log.transactionHash}:${BigInt(log.logIndex === '0x' ? 0 : log.logIndex)}`;

async function getLogs(context: ApiContext, params: Record<string, string>) {
  return (await etherscan(context, { module: 'logs', action: 'getLogs', ...params })).body;
}

/** `logs/getLogs` by topics alone, with every operator pair, paged, and after a reorg: compared with the node's own logs. */
export function etherscanLogTests(ctx: () => ApiContext): void {
  it('logs/getLogs by topic0 alone answers every contract’s logs the node has with it, in Etherscan’s fields, order and encodings', async () => {
    const head = await indexedToHead(ctx());
    const node = await nodeLogs(ctx(), head, { topics: [TRANSFER] });
    expect(new Set(node.map((log) => log.address)).size).toBeGreaterThan(1);
    const rpc = <T>(method: string, params: unknown[]) => rpcCall<T>(ctx().chain.rpcUrl, method, params);
    const expected = [];
    for (const log of node) {
      const receipt = await rpc<{ effectiveGasPrice: Hex; gasUsed: Hex }>('eth_getTransactionReceipt', [log.transactionHash]);
      const block = await rpc<{ timestamp: Hex }>('eth_getBlockByHash', [log.blockHash, false]);
      expected.push({
        address: log.address,
        topics: log.topics,
        data: log.data,
        blockNumber: etherscanHex(log.blockNumber),
        blockHash: log.blockHash,
        timeStamp: etherscanHex(block.timestamp),
        gasPrice: etherscanHex(receipt.effectiveGasPrice),
        gasUsed: etherscanHex(receipt.gasUsed),
        logIndex: etherscanHex(log.logIndex),
        transactionHash: log.transactionHash,
        transactionIndex: etherscanHex(log.transactionIndex),
      });
    }
    const reply = await getLogs(ctx(), { topic0: TRANSFER, fromBlock: '0', toBlock: 'latest' });
    expect(reply.status).toBe('1');
    expect(reply.result).toEqual(expected);
    expect(Object.keys(reply.result[0])).toEqual(Object.keys(expected[0]!));
    expect(reply.result.some((log: { logIndex: string }) => log.logIndex === '0x')).toBe(true);
  });

  it('logs/getLogs with every topicX_Y_opr pair as and or or, by topics alone and with an address, lists the node’s logs that meet it', async () => {
    const head = await indexedToHead(ctx());
    const all = await nodeLogs(ctx(), head);
    const nft = ctx().demo.contracts.nft.toLowerCase();
    const full = all.filter((log) => log.topics.length === 4);
    const [one, other] = [full[0]!, full.at(-1)!];
    expect(one.transactionHash).not.toBe(other.transactionHash);
    const filters: TopicFilter[] = [0, 1, 2, 3].map((position) => ({ topics: Object.assign([], { [position]: one.topics[position] }), operators: {} }));
    for (const [a, b] of PAIRS) {
      for (const operator of ['and', 'or'] as const) {
        // With `or` the second topic is another log's, so each side finds logs of its own.
        filters.push({ topics: Object.assign([], { [a]: one.topics[a], [b]: (operator === 'or' ? other : one).topics[b] }), operators: { [`topic${a}_${b}_opr`]: operator } });
      }
    }
    filters.push({ topics: [one.topics[0], one.topics[1], other.topics[2]], operators: { topic0_1_opr: 'and', topic0_2_opr: 'or', topic1_2_opr: 'or' } });
    for (const filter of filters) {
      for (const address of [undefined, nft]) {
        const expected = all.filter((log) => (address === undefined || log.address === address) && meets(log, filter)).map(idOf);
        const what = JSON.stringify({ address, ...topicParams(filter) });
        expect(expected.length, what).toBeGreaterThan(0);
        const reply = await getLogs(ctx(), { ...topicParams(filter), ...(address ? { address } : {}) });
        expect(reply.result.map(idOf), what).toEqual(expected);
      }
    }
  });

  it('logs/getLogs pages by topics with Etherscan’s offsets and its result-window rule, and answers Etherscan’s texts', async () => {
    const head = await indexedToHead(ctx());
    const transfers = (await nodeLogs(ctx(), head, { topics: [TRANSFER] })).map(idOf);
    expect(transfers.length).toBeGreaterThan(4);
    expect((await getLogs(ctx(), { topic0: TRANSFER, page: '2', offset: '2' })).result.map(idOf)).toEqual(transfers.slice(2, 4));
    expect((await getLogs(ctx(), { topic0: TRANSFER, page: '0', offset: '0' })).result.map(idOf)).toEqual(transfers);
    expect((await getLogs(ctx(), { topic0: TRANSFER, page: '1', offset: '10000' })).result.map(idOf)).toEqual(transfers);
    const window = notOk('Result window is too large, PageNo x Offset size must be less than or equal to 10000');
    for (const [page, offset] of [['2', '5001'], ['11', '1000'], ['3', '5000']]) expect(await getLogs(ctx(), { topic0: TRANSFER, page: page!, offset: offset! }), `${page}×${offset}`).toEqual(window);
    expect(await getLogs(ctx(), { topic0: TRANSFER, fromBlock: String(head + 1000n) })).toEqual(noRecords);
    expect(await getLogs(ctx(), { topic1: `0x${'ee'.repeat(32)}` })).toEqual(noRecords);
    expect(await getLogs(ctx(), { fromBlock: '0' })).toEqual(notOk('Error! Missing address or topic: getLogs needs an address, a topic0 to topic3, or both'));
    expect(await getLogs(ctx(), { topic2: '0x1234' })).toEqual(notOk('Error! Invalid topic format'));
    expect((await getLogs(ctx(), { topic0: TRANSFER, topic1: TRANSFER, topic0_1_opr: 'xor' })).result).toMatch(/topic0_1_opr: must be 'and' or 'or'/);
  });

  it('a log a reorg removed disappears from getLogs by topic, and the replacing block’s logs appear', async () => {
    const { chain, demo } = ctx();
    await indexedToHead(ctx());
    const rpc = <T>(method: string, params: unknown[] = []) => rpcCall<T>(chain.rpcUrl, method, params);
    const snapshot = await rpc<Hex>('evm_snapshot');
    // A recipient no other log names: topic2 of the Transfer finds this log alone.
    const recipient = `0x${Date.now().toString(16).padStart(40, 'c')}` as Hex;
    const topic2 = `0x${recipient.slice(2).padStart(64, '0')}` as Hex;
    const hash = await chain.walletClient.writeContract({ address: demo.contracts.token, abi: demo.abis.token, functionName: 'transfer', args: [recipient, 7n] });
    await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    await indexedToHead(ctx());
    expect((await getLogs(ctx(), { topic2 })).result.map((log: { transactionHash: string }) => log.transactionHash)).toEqual([hash]);

    await rpc('evm_revert', [snapshot]);
    // The replacing branch: a transfer of another amount at the same nonce, then an empty block, so it outgrows the removed one.
    const replacement = await chain.walletClient.writeContract({ address: demo.contracts.token, abi: demo.abis.token, functionName: 'transfer', args: [recipient, 8n] });
    await chain.publicClient.waitForTransactionReceipt({ hash: replacement, pollingInterval: 10 });
    await rpc('evm_mine');
    const head = await rpc<{ hash: Hex }>('eth_getBlockByNumber', ['latest', false]);
    await waitFor(async () => (await ctx().explorer.storage.getCursor())?.hash === head.hash, 'indexing the replacing branch');
    const node = await nodeLogs(ctx(), BigInt(await rpc<Hex>('eth_blockNumber')), { topics: [null, null, topic2] });
    expect(node.map((log) => log.transactionHash)).toEqual([replacement]);
    expect((await getLogs(ctx(), { topic2 })).result.map((log: { transactionHash: string }) => log.transactionHash)).toEqual([replacement]);
    expect((await getLogs(ctx(), { topic0: TRANSFER, topic2, topic0_2_opr: 'and', address: demo.contracts.token })).result).toHaveLength(1);
  });
}
