import type { SolidityOutput } from '@ethereum-sourcify/compilers-types';
import type { ISolidityCompiler, SolidityCompilation, Verification, VerificationStatus } from '@ethereum-sourcify/lib-sourcify';
import type { Logger } from 'pino';
import { getAddress } from 'viem';
import type { ChainClient } from '../chain/chain-client.js';
import { BytecodeMismatchError, CompilationFailedError, ContractNotFoundError, ExplorerError, UpstreamUnavailableError } from '../errors/index.js';
import type { CodeMatch, Hex } from '../storage/index.js';
import { describeMismatch } from './describe-mismatch.js';
import type { SolidityCompiler } from './solidity-compiler.js';
import type { VerificationRequest } from './verification-input.js';

/** What matched: the compiled contract and how much of the chain's code it accounts for. */
export interface ContractMatch {
  /** Long form of the compiler that produced it, e.g. `0.8.37+commit.f401782d`. */
  compilerVersion: string;
  abi: unknown[];
  runtimeMatch: CodeMatch;
  /** `null` where the creation could not be checked (not indexed, or created where the node cannot trace). */
  creationMatch: CodeMatch | null;
  /** ABI-encoded, as read from the creation or else as submitted; `0x` when none. */
  constructorArguments: Hex;
}

type LibSourcify = typeof import('@ethereum-sourcify/lib-sourcify');

/**
 * Matches compiled source against the chain's code with `@ethereum-sourcify/lib-sourcify`: the
 * runtime code at the address (immutables, libraries and the metadata hash accounted for; a
 * matching metadata hash makes a full match) and, given the creation transaction, the creation
 * code and the constructor arguments after it. It reads the chain through the explorer's node.
 */
export class ContractMatcher {
  #lib: Promise<LibSourcify> | null = null;

  constructor(
    private readonly compiler: SolidityCompiler,
    private readonly chain: ChainClient,
    private readonly logger: Logger,
  ) {}

  /**
   * Compiles `request` and matches it against the code at its address; `creationTransaction` (from
   * storage) lets the creation code and constructor arguments be checked too. Throws
   * `BytecodeMismatchError` saying what differed, and the compiler's typed errors.
   */
  async match(request: VerificationRequest, creationTransaction: Hex | null): Promise<ContractMatch> {
    const lib = await this.#library();
    const compilerVersion = await this.compiler.version(request.compilerVersion);
    const sourcifyChain = new lib.SourcifyChain({
      name: 'ChainLens node',
      chainId: await this.chain.chainId(),
      supported: true,
      rpcs: [{ rpc: this.chain.rpcUrl, traceSupport: 'debug_traceTransaction' }],
    });
    // lib-sourcify wraps whatever the compiler throws into its own error: ours are kept to rethrow.
    const compilerErrors: unknown[] = [];
    const compiler: ISolidityCompiler = {
      compile: (version, input) =>
        this.compiler.compile(version, input).catch((error: unknown): Promise<SolidityOutput> => {
          compilerErrors.push(error);
          throw error;
        }),
    };
    const compilation = new lib.SolidityCompilation(compiler, compilerVersion, structuredClone(request.jsonInput), request.target);
    const verification = new lib.Verification(compilation, sourcifyChain, getAddress(request.address), creationTransaction ?? undefined);
    try {
      await verification.verify();
    } catch (error) {
      throw compilerErrors.find((e) => e instanceof ExplorerError) ?? this.#explain(lib, error, verification, compilerVersion, request);
    } finally {
      for (const rpc of sourcifyChain.rpcs) rpc.provider?.destroy();
    }
    const { runtimeMatch, creationMatch } = verification.status;
    const runtime = codeMatch(runtimeMatch);
    if (!runtime) throw this.#mismatch(verification, compilerVersion, request);
    const found = verification.transformations.creation.values.constructorArguments as Hex | undefined;
    const creation = codeMatch(creationMatch);
    const constructorArguments = creation ? (found ?? '0x') : (request.constructorArguments ?? '0x');
    if (creation && request.constructorArguments !== null && request.constructorArguments !== constructorArguments.toLowerCase()) {
      throw new BytecodeMismatchError(`the constructor arguments differ: submitted ${request.constructorArguments}, the creation transaction has ${constructorArguments}`);
    }
    return {
      compilerVersion,
      abi: (verification.compilation.contractCompilerOutput.abi ?? []) as unknown[],
      runtimeMatch: runtime,
      creationMatch: creation,
      constructorArguments: constructorArguments.toLowerCase() as Hex,
    };
  }

  /** lib-sourcify's failure in ChainLens's terms. */
  #explain(lib: LibSourcify, error: unknown, verification: Verification, compilerVersion: string, request: VerificationRequest): Error {
    if (!(error instanceof lib.SourcifyLibError)) return error instanceof Error ? error : new Error(String(error));
    switch (error.code) {
      case 'cannot_fetch_bytecode':
        return new UpstreamUnavailableError(error);
      case 'contract_not_deployed':
        return new ContractNotFoundError();
      case 'contract_not_found_in_compiler_output':
        return new CompilationFailedError(`the sources define no contract ${request.target.name} in ${request.target.path}`);
      case 'compiled_bytecode_is_zero':
        return new CompilationFailedError(`${request.target.name} compiles to no code (an interface or abstract contract?)`);
      case 'compiler_error':
        return new CompilationFailedError(error.message);
      case 'bytecode_length_mismatch':
      case 'no_match':
      case 'extra_file_input_bug':
        return this.#mismatch(verification, compilerVersion, request);
      default:
        this.logger.warn({ err: error }, 'lib-sourcify failed to verify');
        return error;
    }
  }

  #mismatch(verification: Verification, compilerVersion: string, request: VerificationRequest): BytecodeMismatchError {
    const compilation = verification.compilation as SolidityCompilation;
    return new BytecodeMismatchError(
      describeMismatch({
        compiledRuntime: compilation.runtimeBytecode,
        onchainRuntime: verification.onchainRuntimeBytecode,
        immutableReferences: compilation.immutableReferences,
        compilerVersion,
        settings: request.jsonInput.settings,
      }),
    );
  }

  /** lib-sourcify and its dependencies take most of a second to load: only once a verification needs them. */
  #library(): Promise<LibSourcify> {
    this.#lib ??= import('@ethereum-sourcify/lib-sourcify').then((lib) => {
      // One logger for the whole process: lib-sourcify has no per-instance one.
      lib.setLibSourcifyLogger({
        logLevel: 1,
        setLevel(level) {
          this.logLevel = level;
        },
        log: (level, message, metadata) => {
          if (level <= 1) this.logger.debug({ lib: 'lib-sourcify', ...(metadata as object) }, message);
        },
      });
      return lib;
    });
    return this.#lib;
  }
}

/** lib-sourcify's `perfect` is a full match. */
function codeMatch(status: VerificationStatus): CodeMatch | null {
  if (status === 'perfect') return 'full';
  return status === 'partial' ? 'partial' : null;
}
