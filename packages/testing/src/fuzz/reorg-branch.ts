import { encodeFunctionData, erc20Abi, parseAbi, parseGwei, type Address, type Hex } from 'viem';
import { devAccount } from '@chainlens/devchain';
import { RpcError } from '@chainlens/devchain';
import type { ReorgRun } from './reorg-run.js';

export const DEMO_TOKEN_ABI = parseAbi(['function mint(address to, uint256 amount)', 'function totalSupply() view returns (uint256)']);
export const DEMO_NFT_ABI = parseAbi([
  'function mint(address to) returns (uint256)',
  'function transferFrom(address from, address to, uint256 tokenId)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function balanceOf(address holder) view returns (uint256)',
  'function minted() view returns (uint256)',
]);

/** Sends only the transaction each round moves to the winning branch, so its nonce is free there. */
export const MOVER = 8;
/** Senders and recipients of the rounds' activity (the mover apart). */
const PARTIES = [1, 2, 3, 4, 5, 6, 7];
const CALL_GAS = 300_000n;

/** Counts every transaction signed, so no two carry the same value and no replaced block comes back. */
export class Sequence {
  #next = 0;
  next(): number {
    return ++this.#next;
  }
}

/**
 * Signs the transactions of one branch of blocks grown from block `base`: each block an ETH
 * transfer and, in turn, an ERC-20 transfer, an ERC-20 mint, an ERC-721 mint or an ERC-721
 * transfer, from dev accounts with nonces counted from `base`. Signed locally (as raw
 * transactions), so a branch can be handed whole to `anvil_reorg` and a transaction of one
 * branch sent again, the same, on another.
 */
export class BranchWriter {
  readonly #nonces = new Map<number, number>();
  readonly #nftOwners = new Map<bigint, Address | null>();
  #nftMinted: bigint | null = null;

  constructor(
    private readonly run: ReorgRun,
    private readonly base: bigint,
    private readonly sequence: Sequence,
  ) {}

  /** One block's signed transactions. */
  async block(): Promise<Hex[]> {
    const step = this.sequence.next();
    const { demo } = this.run;
    const to = demo.accounts[PARTIES[step % PARTIES.length]!]!;
    const from = PARTIES[(step + 3) % PARTIES.length]!;
    const raws = [await this.sign(from, { to, value: BigInt(1_000 + step) })];
    const token = demo.contracts.token;
    const nft = demo.contracts.nft;
    switch (step % 4) {
      case 0:
        raws.push(await this.sign(0, { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, BigInt(step)] }) }));
        break;
      case 1:
        raws.push(await this.sign(0, { to: token, data: encodeFunctionData({ abi: DEMO_TOKEN_ABI, functionName: 'mint', args: [to, BigInt(step) * 10n ** 15n] }) }));
        break;
      case 2:
        raws.push(await this.sign(0, { to: nft, data: encodeFunctionData({ abi: DEMO_NFT_ABI, functionName: 'mint', args: [to] }) }));
        this.#nftMinted = (await this.#minted()) + 1n;
        this.#nftOwners.set(this.#nftMinted, to);
        break;
      default: {
        const moved = await this.#nftTransfer(step, to);
        if (moved) raws.push(moved);
      }
    }
    return raws;
  }

  /** The mover's ETH transfer, the transaction a round sends again on the winning branch. */
  moverTransfer(): Promise<Hex> {
    return this.sign(MOVER, { to: this.run.demo.accounts[0]!, value: BigInt(1_000_000 + this.sequence.next()) });
  }

  /** Sends `raws` to the pool and mines them as one block. */
  async mine(raws: readonly Hex[]): Promise<void> {
    for (const raw of raws) await this.run.rpc('eth_sendRawTransaction', [raw]);
    await this.run.rpc('evm_mine');
  }

  async sign(account: number, call: { to: Address; value?: bigint; data?: Hex }): Promise<Hex> {
    const signer = devAccount(account);
    let nonce = this.#nonces.get(account);
    if (nonce === undefined) nonce = Number(BigInt(await this.run.rpc<Hex>('eth_getTransactionCount', [signer.address, this.#baseTag()])));
    this.#nonces.set(account, nonce + 1);
    return signer.signTransaction({
      chainId: this.run.chain.chain.id,
      type: 'eip1559',
      nonce,
      to: call.to,
      value: call.value ?? 0n,
      data: call.data,
      gas: call.data ? CALL_GAS : 21_000n,
      maxFeePerGas: parseGwei('100'),
      maxPriorityFeePerGas: parseGwei('1'),
    });
  }

  /** A transfer of an existing ERC-721 token by its owner, or `null` when the one picked is burned. */
  async #nftTransfer(step: number, to: Address): Promise<Hex | null> {
    const minted = await this.#minted();
    if (minted === 0n) return null;
    const id = 1n + (BigInt(step) % minted);
    const owner = await this.#ownerOf(id);
    const holder = owner === null ? -1 : this.run.demo.accounts.findIndex((account) => account.toLowerCase() === owner.toLowerCase());
    if (holder < 0) return null;
    this.#nftOwners.set(id, to);
    return this.sign(holder, { to: this.run.demo.contracts.nft, data: encodeFunctionData({ abi: DEMO_NFT_ABI, functionName: 'transferFrom', args: [owner!, to, id] }) });
  }

  async #minted(): Promise<bigint> {
    this.#nftMinted ??= BigInt(await this.#view(encodeFunctionData({ abi: DEMO_NFT_ABI, functionName: 'minted' })));
    return this.#nftMinted;
  }

  async #ownerOf(id: bigint): Promise<Address | null> {
    if (!this.#nftOwners.has(id)) {
      try {
        const word = await this.#view(encodeFunctionData({ abi: DEMO_NFT_ABI, functionName: 'ownerOf', args: [id] }));
        this.#nftOwners.set(id, `0x${word.slice(26)}`);
      } catch (error) {
        // A burned token: ownerOf reverts.
        if (!(error instanceof RpcError)) throw error;
        this.#nftOwners.set(id, null);
      }
    }
    return this.#nftOwners.get(id)!;
  }

  #view(data: Hex): Promise<Hex> {
    return this.run.rpc<Hex>('eth_call', [{ to: this.run.demo.contracts.nft, data }, this.#baseTag()]);
  }

  #baseTag(): Hex {
    return `0x${this.base.toString(16)}`;
  }
}
