import {
  encodeFunctionData,
  getContractAddress,
  keccak256,
  parseEther,
  stringToHex,
  type Abi,
  type Address,
  type Hash,
  type LocalAccount,
  type TransactionReceipt,
} from 'viem';
import type { HDAccount } from 'viem/accounts';
import { devAccount, devAccounts } from './accounts.js';
import { compileContracts, type CompiledContract } from './compile.js';
import { DEMO_SOURCES } from './contracts/index.js';
import { TxSender } from './tx-sender.js';

/**
 * The demo's contracts, by role. `child` is the contract `Caller.deployChild()` created;
 * `dexPair` is the DEMO/DUSD `DemoPair` that `DemoFactory.createPair` created.
 */
export interface DemoContracts<T> {
  token: T;
  nft: T;
  multiToken: T;
  emitter: T;
  reverter: T;
  caller: T;
  child: T;
  /** A second `DemoToken`, "Demo Dollar" (DUSD), the DEX's quote token. */
  quoteToken: T;
  /** `DemoFactory`, a minimal Uniswap V2 factory. */
  dexFactory: T;
  /** `DemoPair`, the factory's DEMO/DUSD pool (Uniswap V2 events and views). */
  dexPair: T;
}

/** Hashes of the interesting transactions {@link deployDemo} sent, for tests to look up. */
export interface DemoTransactions {
  /**
   * Contract creations, by role (`child` is the `Caller.deployChild()` call, `dexPair` the
   * `createPair` call, the same as {@link DemoTransactions.pairCreated}).
   */
  deployments: DemoContracts<Hash>;
  /** ERC-20 `transfer` of 1 000 DEMO from account 0 to account 1. */
  transfer: Hash;
  /** ERC-20 `approve` of 100 DEMO by account 0 for account 1. */
  approve: Hash;
  /** ERC-20 `transferFrom` of 50 DEMO from account 0 to account 2, sent by account 1. */
  transferFrom: Hash;
  /** ERC-20 owner `mint` of 250 DEMO to account 3. */
  mint: Hash;
  /** ERC-20 `burn` of 100 DEMO by account 2. */
  burn: Hash;
  /** Plain 1 ETH transfer from account 0 to account 5. */
  nativeTransfer: Hash;
  /** ERC-721 `mint` of token 1 to account 0. */
  nftMint: Hash;
  /** ERC-721 `transferFrom` of token 2 from account 1 to account 3. */
  nftTransfer: Hash;
  /** ERC-721 `burn` of token 4 by its holder, account 1. */
  nftBurn: Hash;
  /** ERC-1155 `mint` of 100 × id 1 to account 0. */
  multiMint: Hash;
  /** ERC-1155 `mintBatch` of ids [2, 3] × [10, 20] to account 1. */
  multiMintBatch: Hash;
  /** ERC-1155 `safeTransferFrom` of 5 × id 2 from account 1 to account 2. */
  multiTransfer: Hash;
  /** ERC-1155 `safeBatchTransferFrom` of ids [2, 3] × [1, 2] from account 1 to account 3. */
  multiBatchTransfer: Hash;
  /** ERC-1155 `burn` of 10 × id 1 by account 0. */
  multiBurn: Hash;
  /** ERC-1155 `burnBatch` of ids [2, 3] × [1, 3] by account 1. */
  multiBurnBatch: Hash;
  /** ERC-1155 `setURI` for id 3 (emits `URI`). */
  setUri: Hash;
  /** `EventEmitter.ping("hello from deployDemo")` by account 0. */
  ping: Hash;
  /** `EventEmitter.store(keccak256("greeting"), "hello")`. */
  store: Hash;
  /** `Caller.callPing(emitter, "nested hello")`: a nested call whose log comes from the emitter. */
  nestedPing: Hash;
  /** Mined but reverted: `Reverter.fail()` (reason "Reverter: always fails"). */
  failed: Hash;
  /** Mined but reverted: `Reverter.failCustom()` (custom error `Nope(42)`). */
  failedCustom: Hash;
  /** Mined but reverted: `Reverter.panic()` (panic 0x12, division by zero). */
  failedPanic: Hash;
  /** `DemoFactory.createPair(DEMO, DUSD)`: emits `PairCreated` with the tokens sorted by address. */
  pairCreated: Hash;
  /**
   * `DemoPair.mint(account 0)` after account 0 sent the pair 100 000 DEMO and 250 000 DUSD
   * (1 DEMO = 2.5 DUSD): emits `Sync`, then `Mint`.
   */
  addLiquidity: Hash;
  /**
   * `DemoPair.swap` by account 0 after it sent the pair 1 000 DUSD: buys the DEMO Uniswap V2's
   * `getAmountOut` gives for them (about 397.2, 0.3% fee), sent to account 0. Emits `Sync`, then `Swap`.
   */
  swap: Hash;
}

/** What {@link deployDemo} created. */
export interface DemoDeployment {
  chainId: number;
  /** anvil's ten funded dev accounts; account 0 deployed and owns every contract. */
  accounts: Address[];
  contracts: DemoContracts<Address>;
  abis: DemoContracts<Abi>;
  transactions: DemoTransactions;
  /** First and last block holding the demo's transactions. */
  fromBlock: bigint;
  toBlock: bigint;
}

// Generous fixed limits: gas cannot be estimated for calls to contracts still in the pool.
const DEPLOY_GAS = 3_000_000n;
const CALL_GAS = 300_000n;

/** The DEMO/DUSD pool's opening liquidity: 1 DEMO = 2.5 DUSD. Shared with the activity, not re-exported. */
export const DEMO_POOL_LIQUIDITY = { token: parseEther('100000'), quoteToken: parseEther('250000') } as const;

/** Uniswap V2's `getAmountOut`: what a pool with these reserves pays for `amountIn` (0.3% fee). */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const amountInWithFee = amountIn * 997n;
  return (amountInWithFee * reserveOut) / (reserveIn * 1000n + amountInWithFee);
}

/**
 * Compiles and deploys the demo contracts from anvil's dev accounts and performs a scripted set
 * of transactions (see {@link DemoTransactions}). Works with automine and interval mining: each
 * phase is sent back to back with explicit nonces and gas, then awaited. Final ERC-20 balances:
 * account 0 898 450 DEMO plus what its swap bought (about 397.2), 1 → 990, 2 → 450, 3 → 250,
 * 4 → 10; total supply 1 000 150 DEMO. DUSD: account 0 749 000 of the 1 000 000 minted, the
 * DEMO/DUSD pair the rest; the pair's reserves are 100 000 DEMO less the swap's output and 251 000 DUSD.
 * ERC-721 owners: token 1 → account 0, 2 → account 3, 3 → account 2; token 4 was minted to
 * account 1 and burned (total supply 3). ERC-1155 balances: account 0 id 1 = 90; account 1
 * id 2 = 3, id 3 = 15; account 2 id 2 = 5; account 3 id 2 = 1, id 3 = 2.
 */
export async function deployDemo(chain: { rpcUrl: string }): Promise<DemoDeployment> {
  const compiled = await compileContracts({ ...DEMO_SOURCES });
  const sender = await TxSender.connect(chain.rpcUrl);
  const [a0, a1, a2, a3, a4, a5] = [0, 1, 2, 3, 4, 5].map(devAccount) as Six<HDAccount>;
  const artifact = (name: string): CompiledContract => {
    const found = compiled[name];
    if (!found) throw new Error(`demo contract ${name} missing from compiler output`);
    return found;
  };
  const deploy = async (name: string, args: readonly unknown[]): Promise<Deployed> => {
    const { abi, bytecode } = artifact(name);
    return { abi, ...(await sender.deploy(a0, { abi, bytecode }, args, DEPLOY_GAS)) };
  };
  const call = (from: LocalAccount, to: Contract, fn: string, args: unknown[] = [], value?: bigint) => {
    const data = encodeFunctionData({ abi: to.abi, functionName: fn, args });
    return sender.send(from, { to: to.address, data, gas: CALL_GAS, value });
  };

  // Phase 1: the deployer alone. One account's transactions are mined in nonce order, so the
  // whole phase can be in flight at once, even with interval mining.
  const token = await deploy('DemoToken', ['Demo Token', 'DEMO', parseEther('1000000')]);
  const nft = await deploy('DemoNFT', ['Demo NFT', 'DNFT']);
  const multiToken = await deploy('DemoMultiToken', ['https://chainlens.invalid/multi/{id}.json']);
  const emitter = await deploy('EventEmitter', []);
  const reverter = await deploy('Reverter', []);
  const caller = await deploy('Caller', []);
  const phase1 = {
    transfer: await call(a0, token, 'transfer', [a1.address, parseEther('1000')]),
    transferToA2: await call(a0, token, 'transfer', [a2.address, parseEther('500')]),
    mint: await call(a0, token, 'mint', [a3.address, parseEther('250')]),
    approve: await call(a0, token, 'approve', [a1.address, parseEther('100')]),
    nativeTransfer: await sender.send(a0, { to: a5.address, value: parseEther('1'), gas: 21_000n }),
    nftMint: await call(a0, nft, 'mint', [a0.address]),
    nftMint2: await call(a0, nft, 'mint', [a1.address]),
    nftMint3: await call(a0, nft, 'mint', [a2.address]),
    nftMint4: await call(a0, nft, 'mint', [a1.address]),
    multiMint: await call(a0, multiToken, 'mint', [a0.address, 1n, 100n, '0x']),
    multiBurn: await call(a0, multiToken, 'burn', [a0.address, 1n, 10n]),
    multiMintBatch: await call(a0, multiToken, 'mintBatch', [a1.address, [2n, 3n], [10n, 20n], '0x']),
    setUri: await call(a0, multiToken, 'setURI', [3n, 'https://chainlens.invalid/multi/3-special.json']),
    ping: await call(a0, emitter, 'ping', ['hello from deployDemo']),
    store: await call(a0, emitter, 'store', [keccak256(stringToHex('greeting')), stringToHex('hello')]),
    nestedPing: await call(a0, caller, 'callPing', [emitter.address, 'nested hello']),
    deployChild: await call(a0, caller, 'deployChild', [], 1_000n),
    failed: await call(a0, reverter, 'fail'),
    failedCustom: await call(a0, reverter, 'failCustom'),
    failedPanic: await call(a0, reverter, 'panic'),
  };
  const deployed = [token, nft, multiToken, emitter, reverter, caller].map((d) => d.hash);
  const failing = [phase1.failed, phase1.failedCustom, phase1.failedPanic];
  const receipts1 = await awaitPhase(sender, [...deployed, ...Object.values(phase1)], failing);

  // Phase 2: other accounts spend and burn what phase 1 gave them.
  const phase2 = {
    transferToA4: await call(a1, token, 'transfer', [a4.address, parseEther('10')]),
    transferFrom: await call(a1, token, 'transferFrom', [a0.address, a2.address, parseEther('50')]),
    burn: await call(a2, token, 'burn', [parseEther('100')]),
    nftTransfer: await call(a1, nft, 'transferFrom', [a1.address, a3.address, 2n]),
    nftBurn: await call(a1, nft, 'burn', [4n]),
    multiTransfer: await call(a1, multiToken, 'safeTransferFrom', [a1.address, a2.address, 2n, 5n, '0x']),
    multiBatchTransfer: await call(a1, multiToken, 'safeBatchTransferFrom', [
      a1.address,
      a3.address,
      [2n, 3n],
      [1n, 2n],
      '0x',
    ]),
    multiBurnBatch: await call(a1, multiToken, 'burnBatch', [a1.address, [2n, 3n], [1n, 3n]]),
  };
  const receipts2 = await awaitPhase(sender, Object.values(phase2), []);

  // Phase 3: the deployer opens a DEMO/DUSD pool and trades on it, Uniswap V2 style (tokens sent
  // to the pair first, then `mint` / `swap`). The reserves are known, so the swap is pipelined too.
  const quoteToken = await deploy('DemoToken', ['Demo Dollar', 'DUSD', parseEther('1000000')]);
  const dexFactory = await deploy('DemoFactory', []);
  const dexPair: Contract = {
    // The factory's only CREATE, at nonce 1 (EIP-161).
    address: getContractAddress({ from: dexFactory.address, nonce: 1n }),
    abi: artifact('DemoPair').abi,
  };
  const { token: tokenLiquidity, quoteToken: quoteLiquidity } = DEMO_POOL_LIQUIDITY;
  const swapIn = parseEther('1000');
  const swapOut = getAmountOut(swapIn, quoteLiquidity, tokenLiquidity);
  // The pair orders its tokens by address: DEMO is token0 or token1 depending on the addresses.
  const swapOuts = BigInt(token.address) < BigInt(quoteToken.address) ? [swapOut, 0n] : [0n, swapOut];
  const createPair = encodeFunctionData({
    abi: dexFactory.abi,
    functionName: 'createPair',
    args: [token.address, quoteToken.address],
  });
  const phase3 = {
    // Creating the pair deploys it: more gas than a call.
    pairCreated: await sender.send(a0, { to: dexFactory.address, data: createPair, gas: DEPLOY_GAS }),
    tokenLiquidity: await call(a0, token, 'transfer', [dexPair.address, tokenLiquidity]),
    quoteLiquidity: await call(a0, quoteToken, 'transfer', [dexPair.address, quoteLiquidity]),
    addLiquidity: await call(a0, dexPair, 'mint', [a0.address]),
    swapInput: await call(a0, quoteToken, 'transfer', [dexPair.address, swapIn]),
    swap: await call(a0, dexPair, 'swap', [...swapOuts, a0.address]),
  };
  const receipts3 = await awaitPhase(sender, [quoteToken.hash, dexFactory.hash, ...Object.values(phase3)], []);

  const blocks = [...receipts1, ...receipts2, ...receipts3].map((r) => r.blockNumber);
  return {
    chainId: sender.client.chain.id,
    accounts: devAccounts().map((a) => a.address),
    contracts: {
      token: token.address,
      nft: nft.address,
      multiToken: multiToken.address,
      emitter: emitter.address,
      reverter: reverter.address,
      caller: caller.address,
      // A contract's first CREATE uses nonce 1 (EIP-161), and this Caller creates only once.
      child: getContractAddress({ from: caller.address, nonce: 1n }),
      quoteToken: quoteToken.address,
      dexFactory: dexFactory.address,
      dexPair: dexPair.address,
    },
    abis: {
      token: token.abi,
      nft: nft.abi,
      multiToken: multiToken.abi,
      emitter: emitter.abi,
      reverter: reverter.abi,
      caller: caller.abi,
      child: artifact('Child').abi,
      quoteToken: quoteToken.abi,
      dexFactory: dexFactory.abi,
      dexPair: dexPair.abi,
    },
    transactions: {
      deployments: {
        token: token.hash,
        nft: nft.hash,
        multiToken: multiToken.hash,
        emitter: emitter.hash,
        reverter: reverter.hash,
        caller: caller.hash,
        child: phase1.deployChild,
        quoteToken: quoteToken.hash,
        dexFactory: dexFactory.hash,
        dexPair: phase3.pairCreated,
      },
      transfer: phase1.transfer,
      approve: phase1.approve,
      transferFrom: phase2.transferFrom,
      mint: phase1.mint,
      burn: phase2.burn,
      nativeTransfer: phase1.nativeTransfer,
      nftMint: phase1.nftMint,
      nftTransfer: phase2.nftTransfer,
      nftBurn: phase2.nftBurn,
      multiMint: phase1.multiMint,
      multiMintBatch: phase1.multiMintBatch,
      multiTransfer: phase2.multiTransfer,
      multiBatchTransfer: phase2.multiBatchTransfer,
      multiBurn: phase1.multiBurn,
      multiBurnBatch: phase2.multiBurnBatch,
      setUri: phase1.setUri,
      ping: phase1.ping,
      store: phase1.store,
      nestedPing: phase1.nestedPing,
      failed: phase1.failed,
      failedCustom: phase1.failedCustom,
      failedPanic: phase1.failedPanic,
      pairCreated: phase3.pairCreated,
      addLiquidity: phase3.addLiquidity,
      swap: phase3.swap,
    },
    fromBlock: blocks.reduce((a, b) => (b < a ? b : a)),
    toBlock: blocks.reduce((a, b) => (b > a ? b : a)),
  };
}

type Six<T> = [T, T, T, T, T, T];

/** A contract to call: its address and ABI. */
interface Contract {
  address: Address;
  abi: Abi;
}

/** A contract of this deployment: where it will live, its ABI and its creation transaction. */
interface Deployed extends Contract {
  hash: Hash;
}

/** Waits for a phase and checks every transaction succeeded, except `expectedToFail`. */
async function awaitPhase(
  sender: TxSender,
  hashes: Hash[],
  expectedToFail: Hash[],
): Promise<TransactionReceipt[]> {
  const receipts = await sender.waitForReceipts(hashes);
  for (const receipt of receipts) {
    const expected = expectedToFail.includes(receipt.transactionHash) ? 'reverted' : 'success';
    if (receipt.status !== expected) {
      const hash = receipt.transactionHash;
      throw new Error(`deployDemo: transaction ${hash} ${receipt.status}, expected ${expected}`);
    }
  }
  return receipts;
}
