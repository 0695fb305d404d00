import type { CompiledContractCborAuxdata, CompilerOutput, ImmutableReferences, JsonInput, Match, Metadata, Status } from '@ethereum-sourcify/lib-sourcify';
import type { Logger } from 'pino';
import { getAddress } from 'viem';
import type { ChainClient } from '../../chain/chain-client.js';
import { BytecodeMismatchError, CompilationFailedError, ContractNotFoundError, ExplorerError } from '../../errors/index.js';
import type { CodeMatch, Hex, StoredContractCreation } from '../../storage/index.js';
import { describeMismatch } from './describe-mismatch.js';
import type { SolidityCompiler } from './solidity-compiler.js';
import type { VerificationRequest } from './verification-input.js';

/** What matching needs of the compiled contract: `evm.legacyAssembly` is where lib-sourcify learns where the metadata sits in the code. */
const OUTPUTS = ['abi', 'metadata', 'evm.legacyAssembly', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'];

/** What matched: the compiled contract and how much of the chain's code it accounts for. */
export interface ContractMatch {
  /** Long form of the compiler that produced it, e.g. `0.8.37+commit.f401782d`. */
  compilerVersion: string;
  abi: unknown[];
  runtimeMatch: CodeMatch;
  /**
   * `null` where the creation could not be checked: not indexed, created by another contract, or
   * (lib-sourcify 1.x) a partial match with constructor arguments.
   */
  creationMatch: CodeMatch | null;
  /** ABI-encoded, as read from the creation or else as submitted; `0x` when none. */
  constructorArguments: Hex;
}

type LibSourcify = typeof import('@ethereum-sourcify/lib-sourcify');

/** The submitted contract as compiled. */
interface Compiled {
  /** Long form, e.g. `0.8.37+commit.f401782d`. */
  version: string;
  input: JsonInput;
  output: CompilerOutput;
  abi: unknown[];
  metadata: Metadata;
  creationCode: string;
  runtimeCode: string;
  immutableReferences: ImmutableReferences;
}

/** Where the metadata (CBOR auxdata) sits in each of the compiled codes, as lib-sourcify asks for it. */
interface MetadataPositions {
  runtime: () => Promise<CompiledContractCborAuxdata>;
  creation: () => Promise<CompiledContractCborAuxdata>;
  /** What to rethrow for a failure in finding them: the compiler's own typed error, if it was one. */
  cause(error: unknown): unknown;
}

/**
 * Matches compiled source against the chain's code with `@ethereum-sourcify/lib-sourcify`'s match
 * functions, fed with ChainLens's own compilation: the runtime code at the address (immutables,
 * libraries and the metadata hash accounted for; a matching metadata hash makes a full match)
 * and, given the transaction that created the contract, the creation code and the constructor
 * arguments after it. It reads the chain through the explorer's node, and nothing else.
 */
export class ContractMatcher {
  #lib: Promise<LibSourcify> | null = null;

  constructor(
    private readonly compiler: SolidityCompiler,
    private readonly chain: ChainClient,
    private readonly logger: Logger,
  ) {}

  /**
   * Compiles `request` and matches it against the code at its address; `creation` (from storage)
   * lets the creation code and constructor arguments be checked too. Throws `BytecodeMismatchError`
   * saying what differed, `ContractNotFoundError` without code, and the compiler's typed errors.
   */
  async match(request: VerificationRequest, creation: StoredContractCreation | null): Promise<ContractMatch> {
    const onchainRuntime = await this.chain.request<string>('eth_getCode', [request.address, 'latest']);
    if (onchainRuntime === '0x') throw new ContractNotFoundError();
    const compiled = await this.#compile(request);
    const lib = await this.#library();
    const positions = this.#metadataPositions(lib, request, compiled);
    const chainId = await this.chain.chainId();
    const match: Match = { address: getAddress(request.address), chainId: String(chainId), runtimeMatch: null, creationMatch: null };

    await lib.matchWithRuntimeBytecode(match, compiled.runtimeCode, onchainRuntime, positions.runtime, compiled.immutableReferences).catch((error: unknown) => {
      throw positions.cause(error);
    });
    const runtimeMatch = codeMatch(match.runtimeMatch);
    if (!runtimeMatch) {
      const { runtimeCode, immutableReferences, version } = compiled;
      throw new BytecodeMismatchError(describeMismatch({ compiledRuntime: runtimeCode, onchainRuntime, immutableReferences, compilerVersion: version, settings: request.jsonInput.settings }));
    }
    // lib-sourcify 1.x derives the created address from the transaction's sender and nonce: the
    // creation of a contract that another contract created cannot be checked.
    if (creation?.traceIndex === 0) await this.#matchCreation(lib, match, compiled, creation.transactionHash, positions);

    const creationMatch = codeMatch(match.creationMatch);
    const constructorArguments = (creationMatch ? (match.abiEncodedConstructorArguments ?? '0x') : (request.constructorArguments ?? '0x')).toLowerCase() as Hex;
    if (creationMatch && request.constructorArguments !== null && request.constructorArguments !== constructorArguments) {
      throw new BytecodeMismatchError(`the constructor arguments differ: submitted ${request.constructorArguments}, the creation transaction has ${constructorArguments}`);
    }
    return { compilerVersion: compiled.version, abi: compiled.abi, runtimeMatch, creationMatch, constructorArguments };
  }

  /** Compiles the submitted input, with the outputs matching needs, in the compiler's worker. */
  async #compile(request: VerificationRequest): Promise<Compiled> {
    const { path, name } = request.target;
    const version = await this.compiler.version(request.compilerVersion);
    const input: JsonInput = { ...request.jsonInput, settings: { ...request.jsonInput.settings, outputSelection: { [path]: { [name]: OUTPUTS } } } };
    const output = await this.compiler.compile(version, input);
    const contract = output.contracts?.[path]?.[name];
    if (!contract) throw new CompilationFailedError(`the sources define no contract ${name} in ${path}`);
    const creationCode = `0x${contract.evm.bytecode.object}`;
    const runtimeCode = `0x${contract.evm.deployedBytecode?.object ?? ''}`;
    if (creationCode === '0x' || runtimeCode === '0x') throw new CompilationFailedError(`${name} compiles to no code (an interface or abstract contract?)`);
    return {
      version,
      input,
      output,
      abi: contract.abi as unknown[],
      metadata: JSON.parse(contract.metadata) as Metadata,
      creationCode,
      runtimeCode,
      immutableReferences: contract.evm.deployedBytecode?.immutableReferences ?? {},
    };
  }

  /**
   * lib-sourcify's finder of the metadata in our compiled codes, asked only when a code differs
   * from the chain's. Code holding several contracts' metadata takes a second compilation, of our
   * input with every source slightly edited, by our compiler.
   */
  #metadataPositions(lib: LibSourcify, request: VerificationRequest, compiled: Compiled): MetadataPositions {
    // lib-sourcify wraps whatever the compiler throws into its own error: ours are kept to rethrow.
    const compilerErrors: unknown[] = [];
    const compiler = {
      compile: (version: string, input: JsonInput) =>
        this.compiler.compile(version, input).catch((error: unknown) => {
          compilerErrors.push(error);
          throw error;
        }),
    };
    const sources = Object.fromEntries(Object.entries(request.jsonInput.sources).map(([file, source]) => [file, source.content]));
    const contract = new lib.CheckedContract(compiler, compiled.metadata, sources);
    // What lib-sourcify's own compilation would have set: it is given ours instead.
    Object.assign(contract, { solcJsonInput: compiled.input, compilerOutput: compiled.output, creationBytecode: compiled.creationCode, runtimeBytecode: compiled.runtimeCode });
    const positions = (part: 'runtimeBytecodeCborAuxdata' | 'creationBytecodeCborAuxdata') => async () => {
      if (contract[part] === undefined) await contract.generateCborAuxdataPositions();
      return contract[part] ?? {};
    };
    return {
      runtime: positions('runtimeBytecodeCborAuxdata'),
      creation: positions('creationBytecodeCborAuxdata'),
      cause: (error) => compilerErrors.find((e) => e instanceof ExplorerError) ?? error,
    };
  }

  /**
   * Matches the creation code and reads the constructor arguments from the transaction that
   * created the contract, into `match`. A failure other than the compiler's leaves the creation
   * unchecked, as when it is not indexed: the contract is verified by its runtime code.
   */
  async #matchCreation(lib: LibSourcify, match: Match, compiled: Compiled, transactionHash: Hex, positions: MetadataPositions): Promise<void> {
    // Node's ESM loader misses this one CommonJS export (a getter); the default export, all of
    // `module.exports`, has it.
    const SourcifyChain = lib.SourcifyChain ?? (lib as LibSourcify & { default: LibSourcify }).default.SourcifyChain;
    const chain = new SourcifyChain({ name: 'ChainLens node', chainId: Number(match.chainId), rpc: [this.chain.rpcUrl], supported: true });
    try {
      await lib.matchWithCreationTx(match, compiled.creationCode, chain, match.address, transactionHash, compiled.metadata, positions.creation);
      if (match.creationMatch === null) this.logger.debug({ address: match.address, reason: match.message }, 'the creation code did not match');
    } catch (error) {
      const cause = positions.cause(error);
      if (cause instanceof ExplorerError) throw cause;
      this.logger.warn({ err: cause, address: match.address }, 'the creation of a verified contract could not be checked');
      match.creationMatch = null;
    } finally {
      for (const provider of chain.providers) provider.destroy();
    }
  }

  /** lib-sourcify and its dependencies take a while to load: only once a verification needs them. */
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
function codeMatch(status: Status): CodeMatch | null {
  if (status === 'perfect') return 'full';
  return status === 'partial' ? 'partial' : null;
}
