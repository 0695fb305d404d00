import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ChainClient } from '../../chain/chain-client.js';
import { detectProxy } from '../../proxies/proxy-detection.js';
import { ContractNotFoundError, UpstreamUnavailableError, VerificationFailedError } from '../../errors/index.js';
import type { Hex, StoredVerificationJob, StoredVerifiedContract, TransactionReader, VerificationJobKind, VerificationJobStatus, VerificationStorage } from '../../storage/index.js';
import { assertVerificationInstalled } from './compiler-builds.js';
import { CompilationQueue, type CompilationTicket } from './compilation-queue.js';
import { ContractMatcher } from './contract-matcher.js';
import { licenseOf } from './license.js';
import { SolidityCompiler } from './solidity-compiler.js';
import { prepareVerification, type VerificationInput, type VerificationRequest } from './verification-input.js';

/** Job messages: Etherscan's texts (`checkverifystatus`), which clients match. */
export const VERIFICATION_MESSAGES = {
  pending: 'Pending in queue',
  verified: 'Pass - Verified',
  alreadyVerified: 'Already Verified',
  /** Followed by `. <reason>`. */
  failed: 'Fail - Unable to verify',
  /** A proxy whose implementation was found (Etherscan's `checkproxyverification`). */
  proxyLinked: (proxy: Hex, implementation: Hex) => `The proxy's (${proxy}) implementation contract is found at ${implementation} and is successfully updated.`,
  proxyNotDetected: 'A corresponding implementation contract was unfortunately not detected for the proxy address.',
} as const;

/** Options of {@link VerificationService}. */
export interface VerificationServiceOptions {
  storage: VerificationStorage & TransactionReader;
  chain: ChainClient;
  logger: Logger;
  /** Current time in milliseconds. */
  clock: () => number;
  /** Directory of `soljson-v<version>+commit.<hash>.js` builds for versions other than the bundled solc. */
  compilersDir?: string;
  /** Wall-clock limit of one compilation. */
  timeoutMs: number;
  /** Memory limit of one compiler worker (its JavaScript heap and the compiler's memory, each). */
  maxMemoryMb: number;
  /** Verifications compiling at once. */
  maxConcurrent: number;
  /** Verifications waiting for a place; beyond them, 429 `Max rate limit reached`. */
  maxQueued: number;
  /** Told each contract whose verified source was stored, once it is stored (caches of its decoded logs start afresh). */
  onVerified?: (address: Hex) => void;
}

/** A finished verification: its job, the stored record, and whether it was verified before. */
export interface VerificationOutcome {
  job: StoredVerificationJob;
  contract: StoredVerifiedContract;
  /** The contract was already verified: nothing was compiled and the record is the earlier one. */
  alreadyVerified: boolean;
}

/**
 * Source verification: compiles submitted Solidity (in worker threads, within time and memory
 * limits, at most `maxConcurrent` at once with a bounded queue) and matches it against the chain's
 * code; on success stores the verified contract. Every request is a job polled by its guid, with
 * Etherscan's status texts. Verifying a verified contract again answers `Already Verified`.
 *
 * @example
 * ```ts
 * const job = await explorer.services.verification.submit(input); // status 'pending'
 * const later = await explorer.services.verification.job(job.guid); // 'verified' or 'failed', with the reason
 * ```
 */
export class VerificationService {
  readonly #compiler: SolidityCompiler;
  readonly #matcher: ContractMatcher;
  readonly #queue: CompilationQueue;
  readonly #running = new Set<Promise<unknown>>();
  #closed = false;

  constructor(private readonly options: VerificationServiceOptions) {
    this.#compiler = new SolidityCompiler({
      compilersDir: options.compilersDir,
      timeoutMs: options.timeoutMs,
      maxMemoryMb: options.maxMemoryMb,
      maxIdle: options.maxConcurrent,
    });
    this.#matcher = new ContractMatcher(this.#compiler, options.chain, options.logger);
    // A place frees when a running verification ends, which its compilations' limit bounds.
    this.#queue = new CompilationQueue({ maxConcurrent: options.maxConcurrent, maxQueued: options.maxQueued, retryAfterSeconds: Math.ceil(options.timeoutMs / 1_000) });
  }

  /**
   * Accepts a verification and runs it in the background: resolves the stored job (`pending`, or
   * `verified` with `Already Verified`), to be polled with {@link job}. Bad input is
   * `InvalidRequestError`, an address without code `ContractNotFoundError`, a full queue
   * `CompilerBusyError` (429); nothing is stored then.
   */
  async submit(input: VerificationInput): Promise<StoredVerificationJob> {
    const { job, outcome } = await this.#start(input);
    // Its failure is recorded in the job.
    outcome.catch(() => undefined);
    return job;
  }

  /**
   * Verifies and waits for the outcome. Besides {@link submit}'s refusals, throws why it failed:
   * `CompilerNotAvailableError`, `CompilationFailedError` (and its time and memory limits),
   * `BytecodeMismatchError` saying what differed.
   */
  async verify(input: VerificationInput): Promise<VerificationOutcome> {
    return (await this.#start(input)).outcome;
  }

  /** A job by guid, `null` when unknown. */
  job(guid: string): Promise<StoredVerificationJob | null> {
    return this.options.storage.getVerificationJob(guid);
  }

  /**
   * Links a proxy to its implementation (Etherscan's `verifyproxycontract`): detects the proxy at
   * the newest block (EIP-1167, EIP-1967, EIP-1822, EIP-897) and stores a finished `proxy` job,
   * verified when an implementation is found (and is `expectedImplementation`, when given).
   */
  async verifyProxy(address: Hex, expectedImplementation?: Hex): Promise<StoredVerificationJob> {
    const { chain, storage } = this.options;
    const code = await chain.request<string>('eth_getCode', [address, 'latest']);
    if (code === '0x') throw new ContractNotFoundError();
    const proxy = await detectProxy(chain, address, code, 'latest');
    const job = !proxy
      ? this.#job('proxy', address, 'failed', VERIFICATION_MESSAGES.proxyNotDetected)
      : expectedImplementation && expectedImplementation !== proxy.implementation
        ? this.#job('proxy', address, 'failed', `The proxy's implementation contract is at ${proxy.implementation}, not at the expected ${expectedImplementation}.`)
        : this.#job('proxy', address, 'verified', VERIFICATION_MESSAGES.proxyLinked(address, proxy.implementation));
    await storage.putVerificationJob(job);
    return job;
  }

  /** Ends the compilers and waits for running verifications to settle (they fail). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#compiler.close();
    await Promise.allSettled(this.#running);
  }

  async #start(input: VerificationInput): Promise<{ job: StoredVerificationJob; outcome: Promise<VerificationOutcome> }> {
    if (this.#closed) throw new Error('the verification service is closed');
    const { storage, chain } = this.options;
    const request = prepareVerification(input);
    assertVerificationInstalled();
    const existing = await storage.getVerifiedContract(request.address);
    if (existing) {
      const job = this.#job('source', request.address, 'verified', VERIFICATION_MESSAGES.alreadyVerified);
      await storage.putVerificationJob(job);
      return { job, outcome: Promise.resolve({ job, contract: existing, alreadyVerified: true }) };
    }
    const code = await chain.request<string>('eth_getCode', [request.address, 'latest']);
    if (code === '0x') throw new ContractNotFoundError();
    const ticket = this.#queue.enter();
    const job = this.#job('source', request.address, 'pending', VERIFICATION_MESSAGES.pending);
    try {
      await storage.putVerificationJob(job);
    } catch (error) {
      ticket.release();
      throw error;
    }
    const outcome = this.#run(job, request, ticket);
    this.#running.add(outcome);
    void outcome.finally(() => this.#running.delete(outcome)).catch(() => undefined);
    return { job, outcome };
  }

  async #run(pending: StoredVerificationJob, request: VerificationRequest, ticket: CompilationTicket): Promise<VerificationOutcome> {
    const { storage } = this.options;
    try {
      await ticket.started;
      const creation = await storage.getContractCreation(request.address);
      const match = await this.#matcher.match(request, creation);
      const now = this.#now();
      const contract: StoredVerifiedContract = {
        address: request.address,
        name: request.target.name,
        path: request.target.path,
        compilerVersion: match.compilerVersion,
        compilerSettings: { ...request.jsonInput.settings },
        sources: Object.fromEntries(Object.entries(request.jsonInput.sources).map(([path, source]) => [path, source.content])),
        abi: match.abi,
        license: licenseOf(request.jsonInput.sources[request.target.path]!.content, request.licenseType),
        constructorArguments: match.constructorArguments,
        runtimeMatch: match.runtimeMatch,
        creationMatch: match.creationMatch,
        verifiedAt: now,
      };
      await storage.putVerifiedContract(contract);
      this.options.onVerified?.(contract.address);
      const job: StoredVerificationJob = { ...pending, status: 'verified', message: VERIFICATION_MESSAGES.verified, updatedAt: now };
      await storage.putVerificationJob(job);
      return { job, contract, alreadyVerified: false };
    } catch (error) {
      await this.#fail(pending, error);
      throw error;
    } finally {
      ticket.release();
    }
  }

  /** Records why a job failed; what is no verification failure is logged and told as internal. */
  async #fail(pending: StoredVerificationJob, error: unknown): Promise<void> {
    let reason: string;
    if (error instanceof VerificationFailedError) reason = error.reason;
    else if (error instanceof UpstreamUnavailableError) reason = 'the node could not be reached';
    else if (error instanceof ContractNotFoundError) reason = 'there is no contract at this address';
    else {
      this.options.logger.error({ err: error, guid: pending.guid }, 'verification failed unexpectedly');
      reason = 'an internal error occurred';
    }
    const job: StoredVerificationJob = { ...pending, status: 'failed', message: `${VERIFICATION_MESSAGES.failed}. ${reason}`, updatedAt: this.#now() };
    await this.options.storage.putVerificationJob(job).catch((cause: unknown) => {
      this.options.logger.error({ err: cause, guid: pending.guid }, 'could not record a failed verification');
    });
  }

  #job(kind: VerificationJobKind, address: Hex, status: VerificationJobStatus, message: string): StoredVerificationJob {
    const now = this.#now();
    return { guid: randomUUID(), kind, address, status, message, createdAt: now, updatedAt: now };
  }

  #now(): string {
    return new Date(this.options.clock()).toISOString();
  }
}
