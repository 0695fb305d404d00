import {
  createPublicClient,
  encodeDeployData,
  getContractAddress,
  http,
  type Abi,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
} from 'viem';
import { devChain } from './dev-chain.js';

/** A transaction for {@link TxSender.send}; `gas` is mandatory so nothing is estimated. */
export interface TxRequest {
  to?: Address;
  data?: Hex;
  value?: bigint;
  gas: bigint;
}

/**
 * Sends transactions signed locally with explicit nonce, gas and fees. Nothing is estimated or
 * simulated, so transactions can be pipelined before earlier ones are mined (a call to a
 * contract still in the pool would fail estimation) and reverting ones are mined, not refused.
 */
export class TxSender {
  readonly #nonces = new Map<Address, number>();
  #fees: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> | undefined;

  private constructor(readonly client: PublicClient<Transport, Chain>) {}

  /** Connects to the node at `rpcUrl`. */
  static async connect(rpcUrl: string): Promise<TxSender> {
    const chain = await devChain(rpcUrl);
    return new TxSender(createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 }));
  }

  /** Signs and submits `tx` from `account`; resolves with the hash once the node accepted it. */
  async send(account: LocalAccount, tx: TxRequest): Promise<Hash> {
    return (await this.#submit(account, tx)).hash;
  }

  /** Submits a contract creation and returns its hash and the address the contract will have. */
  async deploy(
    account: LocalAccount,
    contract: { abi: Abi; bytecode: Hex },
    args: readonly unknown[],
    gas: bigint,
  ): Promise<{ hash: Hash; address: Address }> {
    const data = encodeDeployData({ abi: contract.abi, bytecode: contract.bytecode, args });
    const { hash, nonce } = await this.#submit(account, { data, gas });
    return { hash, address: getContractAddress({ from: account.address, nonce: BigInt(nonce) }) };
  }

  /**
   * Waits until every transaction is mined and returns the receipts in the same order; `signal`
   * ends the wait early (viem would otherwise wait up to 3 minutes for a transaction never mined).
   */
  waitForReceipts(hashes: readonly Hash[], signal?: AbortSignal): Promise<TransactionReceipt[]> {
    return Promise.all(hashes.map((hash) => this.client.waitForTransactionReceipt({ hash, signal })));
  }

  /** Drops cached nonces and fees, e.g. because someone else sent from the same accounts. */
  refresh(): void {
    this.#nonces.clear();
    this.#fees = undefined;
  }

  async #submit(account: LocalAccount, tx: TxRequest): Promise<{ hash: Hash; nonce: number }> {
    const nonce = await this.#nextNonce(account.address);
    try {
      const serializedTransaction = await account.signTransaction({
        ...tx,
        ...(await this.#currentFees()),
        type: 'eip1559',
        chainId: this.client.chain.id,
        nonce,
      });
      return { hash: await this.client.sendRawTransaction({ serializedTransaction }), nonce };
    } catch (error) {
      // The nonce was not used and the fees may be stale: re-read both next time.
      this.#nonces.delete(account.address);
      this.#fees = undefined;
      throw error;
    }
  }

  async #nextNonce(address: Address): Promise<number> {
    let nonce = this.#nonces.get(address);
    if (nonce === undefined) {
      const pending = await this.client.getTransactionCount({ address, blockTag: 'pending' });
      nonce = this.#nonces.get(address) ?? pending; // a concurrent call may have set it meanwhile
    }
    this.#nonces.set(address, nonce + 1);
    return nonce;
  }

  #currentFees(): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
    this.#fees ??= (async () => {
      const [block, maxPriorityFeePerGas] = await Promise.all([
        this.client.getBlock({ blockTag: 'latest' }),
        this.client.estimateMaxPriorityFeePerGas(),
      ]);
      // Twice the base fee leaves room for several fuller blocks before the fee is too low.
      return { maxFeePerGas: 2n * (block.baseFeePerGas ?? 0n) + maxPriorityFeePerGas, maxPriorityFeePerGas };
    })();
    return this.#fees;
  }
}
