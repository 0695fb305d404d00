import { encodeFunctionData, parseAbi, type Address, type Hex } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { DEV_ACCOUNT_COUNT, devAccounts } from './accounts.js';
import { rpcBatch, rpcCall } from './rpc.js';

/** Options of {@link fillBlocks}. */
export interface FillBlocksOptions {
  /** Number of blocks to mine. */
  blocks: number;
  /** Transactions in each of those blocks (21 000-gas ETH transfers unless `erc20` is set). */
  txPerBlock: number;
  /**
   * Makes every transaction an ERC-20 `transfer` of one base unit of this token to the next dev
   * account (each must hold some): blocks full of `Transfer` events.
   */
  erc20?: Address;
}

const TRANSFER_GAS = 21_000n;
/** Enough for an ERC-20 transfer that creates the recipient's balance slot. */
const ERC20_TRANSFER_GAS = 100_000n;
const ERC20 = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);

interface RpcBlock {
  number: Hex;
  gasLimit: Hex;
  baseFeePerGas?: Hex;
  transactions: unknown[];
}

/**
 * Mines `blocks` blocks holding exactly `txPerBlock` native (or ERC-20) transfers each, as fast as anvil
 * allows: automine and interval mining are paused, transfers between the dev accounts are signed
 * locally with tracked nonces, submitted in one JSON-RPC batch per block and mined with
 * `evm_mine`; each block is checked, and the previous mining mode is restored afterwards.
 * Transactions already waiting in the pool are mined first, in a block of their own.
 */
export async function fillBlocks(chain: { rpcUrl: string }, options: FillBlocksOptions): Promise<void> {
  const { blocks, txPerBlock, erc20 } = options;
  const gasPerTx = erc20 ? ERC20_TRANSFER_GAS : TRANSFER_GAS;
  if (!Number.isInteger(blocks) || blocks < 0 || !Number.isInteger(txPerBlock) || txPerBlock < 0) {
    throw new RangeError(`fillBlocks: blocks and txPerBlock must be non-negative integers`);
  }
  if (blocks === 0) return;
  const url = chain.rpcUrl;
  const [chainIdHex, automine, interval, latest, tipHex] = await rpcBatch<unknown>(url, [
    { method: 'eth_chainId' },
    { method: 'anvil_getAutomine' },
    { method: 'anvil_getIntervalMining' },
    { method: 'eth_getBlockByNumber', params: ['latest', false] },
    { method: 'eth_maxPriorityFeePerGas' },
  ]);
  const chainId = Number(chainIdHex as Hex);
  const maxPriorityFeePerGas = BigInt(tipHex as Hex);
  let head = latest as RpcBlock;
  if (BigInt(txPerBlock) * gasPerTx > BigInt(head.gasLimit)) {
    throw new RangeError(
      `fillBlocks: ${txPerBlock} transfers need more than the block gas limit ` +
        `${BigInt(head.gasLimit)}; start anvil with a larger --gas-limit`,
    );
  }

  const senders = devAccounts(DEV_ACCOUNT_COUNT);
  await rpcCall(url, 'evm_setAutomine', [false]);
  try {
    if (interval) await rpcCall(url, 'evm_setIntervalMining', [0]);
    if (await poolHasPending(url)) head = await mine(url);
    const nonceCalls = senders.map((s) => ({
      method: 'eth_getTransactionCount',
      params: [s.address, 'pending'],
    }));
    const nonces = (await rpcBatch<Hex>(url, nonceCalls)).map(Number);

    // Pipelined: block b+1 is signed (in-process, the slow part) while anvil executes block b.
    const sign = (b: number, basis: RpcBlock): Promise<Hex[]> => {
      // Two blocks after `basis`, the base fee has risen by at most 1.125² < 2.
      const maxFeePerGas = 2n * BigInt(basis.baseFeePerGas ?? '0x0') + maxPriorityFeePerGas;
      const fees = { chainId, maxFeePerGas, maxPriorityFeePerGas };
      return signBlock(senders, nonces, b * txPerBlock, txPerBlock, fees, erc20);
    };
    let next = sign(0, head);
    for (let b = 0; b < blocks; b++) {
      const raw = await next;
      const expected = BigInt(head.number) + 1n;
      const mined = submitAndMine(url, raw);
      if (b + 1 < blocks) {
        next = sign(b + 1, head);
        // Awaited next iteration; this only keeps an early exit from leaving it unhandled.
        next.catch(() => {});
      }
      head = await mined;
      if (BigInt(head.number) !== expected || head.transactions.length !== txPerBlock) {
        throw new Error(
          `fillBlocks: block ${BigInt(head.number)} holds ${head.transactions.length} transactions, ` +
            `expected block ${expected} with ${txPerBlock}`,
        );
      }
    }
  } finally {
    if (interval) await rpcCall(url, 'evm_setIntervalMining', [interval]);
    await rpcCall(url, 'evm_setAutomine', [automine]);
  }
}

/**
 * Signs `count` transfers round-robin over `senders`, starting at transfer number `first`, and
 * advances `nonces`. Yields to the event loop now and then so pending RPC I/O keeps flowing.
 */
async function signBlock(
  senders: HDAccount[],
  nonces: number[],
  first: number,
  count: number,
  fees: { chainId: number; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  erc20: Address | undefined,
): Promise<Hex[]> {
  const raw: Hex[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 8 === 7) await new Promise(setImmediate);
    const from = (first + i) % senders.length;
    const recipient = senders[(from + 1) % senders.length]!.address;
    const payment = erc20
      ? { to: erc20, value: 0n, gas: ERC20_TRANSFER_GAS, data: encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [recipient, 1n] }) }
      : { to: recipient, value: 1n, gas: TRANSFER_GAS };
    raw.push(await senders[from]!.signTransaction({ ...fees, type: 'eip1559', nonce: nonces[from]!++, ...payment }));
  }
  return raw;
}

async function submitAndMine(url: string, raw: Hex[]): Promise<RpcBlock> {
  await rpcBatch(url, raw.map((tx) => ({ method: 'eth_sendRawTransaction', params: [tx] })));
  return mine(url);
}

async function mine(url: string): Promise<RpcBlock> {
  await rpcCall(url, 'evm_mine');
  return rpcCall<RpcBlock>(url, 'eth_getBlockByNumber', ['latest', false]);
}

async function poolHasPending(url: string): Promise<boolean> {
  const status = await rpcCall<{ pending: Hex; queued: Hex }>(url, 'txpool_status');
  return BigInt(status.pending) > 0n;
}
