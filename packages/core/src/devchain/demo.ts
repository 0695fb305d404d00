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

/** The demo's contracts, by role. `child` is the contract `Caller.deployChild()` created. */
export interface DemoContracts<T> {
  token: T;
  nft: T;
  multiToken: T;
  emitter: T;
  reverter: T;
  caller: T;
  child: T;
}

/** Hashes of the interesting transactions {@link deployDemo} sent, for tests to look up. */
export interface DemoTransactions {
  /** Contract creations, by role (`child` is the `Caller.deployChild()` call). */
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
  /** ERC-1155 `mint` of 100 × id 1 to account 0. */
  multiMint: Hash;
  /** ERC-1155 `mintBatch` of ids [2, 3] × [10, 20] to account 1. */
  multiMintBatch: Hash;
  /** ERC-1155 `safeTransferFrom` of 5 × id 2 from account 1 to account 2. */
  multiTransfer: Hash;
  /** ERC-1155 `safeBatchTransferFrom` of ids [2, 3] × [1, 2] from account 1 to account 3. */
  multiBatchTransfer: Hash;
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

/**
 * Compiles and deploys the demo contracts from anvil's dev accounts and performs a scripted set
 * of transactions (see {@link DemoTransactions}). Works with automine and interval mining: each
 * phase is sent back to back with explicit nonces and gas, then awaited. Final ERC-20 balances:
 * account 0 998 450 DEMO, 1 → 990, 2 → 450, 3 → 250, 4 → 10; total supply 1 000 150 DEMO.
 * ERC-721 owners: token 1 → account 0, 2 → account 3, 3 → account 2. ERC-1155 balances: account 0
 * id 1 = 100; account 1 id 2 = 4, id 3 = 18; account 2 id 2 = 5; account 3 id 2 = 1, id 3 = 2.
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
  const call = (from: LocalAccount, to: Deployed, fn: string, args: unknown[] = [], value?: bigint) => {
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
    multiMint: await call(a0, multiToken, 'mint', [a0.address, 1n, 100n, '0x']),
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

  // Phase 2: other accounts spend what phase 1 gave them.
  const phase2 = {
    transferToA4: await call(a1, token, 'transfer', [a4.address, parseEther('10')]),
    transferFrom: await call(a1, token, 'transferFrom', [a0.address, a2.address, parseEther('50')]),
    burn: await call(a2, token, 'burn', [parseEther('100')]),
    nftTransfer: await call(a1, nft, 'transferFrom', [a1.address, a3.address, 2n]),
    multiTransfer: await call(a1, multiToken, 'safeTransferFrom', [a1.address, a2.address, 2n, 5n, '0x']),
    multiBatchTransfer: await call(a1, multiToken, 'safeBatchTransferFrom', [
      a1.address,
      a3.address,
      [2n, 3n],
      [1n, 2n],
      '0x',
    ]),
  };
  const receipts2 = await awaitPhase(sender, Object.values(phase2), []);

  const blocks = [...receipts1, ...receipts2].map((r) => r.blockNumber);
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
    },
    abis: {
      token: token.abi,
      nft: nft.abi,
      multiToken: multiToken.abi,
      emitter: emitter.abi,
      reverter: reverter.abi,
      caller: caller.abi,
      child: artifact('Child').abi,
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
      },
      transfer: phase1.transfer,
      approve: phase1.approve,
      transferFrom: phase2.transferFrom,
      mint: phase1.mint,
      burn: phase2.burn,
      nativeTransfer: phase1.nativeTransfer,
      nftMint: phase1.nftMint,
      nftTransfer: phase2.nftTransfer,
      multiMint: phase1.multiMint,
      multiMintBatch: phase1.multiMintBatch,
      multiTransfer: phase2.multiTransfer,
      multiBatchTransfer: phase2.multiBatchTransfer,
      setUri: phase1.setUri,
      ping: phase1.ping,
      store: phase1.store,
      nestedPing: phase1.nestedPing,
      failed: phase1.failed,
      failedCustom: phase1.failedCustom,
      failedPanic: phase1.failedPanic,
    },
    fromBlock: blocks.reduce((a, b) => (b < a ? b : a)),
    toBlock: blocks.reduce((a, b) => (b > a ? b : a)),
  };
}

type Six<T> = [T, T, T, T, T, T];

/** A contract of this deployment: where it will live, its ABI and its creation transaction. */
interface Deployed {
  address: Address;
  abi: Abi;
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
