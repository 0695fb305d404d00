import { z } from 'zod';
import type { Principal } from '../../auth/principal.js';
import { holdsScope } from '../../auth/scopes.js';
import { ContractNotFoundError, ForbiddenError, UnauthorizedError } from '../../errors/index.js';
import { addressParams } from '../../http/request-schemas.js';
import { addressSchema, optionalAddressSchema } from '../../values/hex.js';
import type { ContractCreationRecord, ContractRecord } from '../../services/index.js';
import type { Services } from '../../explorer-services.js';
import type { Hex, StoredVerificationJob } from '../../storage/index.js';
import { VERIFICATION_MESSAGES, verificationFields, type VerificationInput } from '../../features/verification/index.js';
import { notOk, ok, type EtherscanAnswer } from './answers.js';
import { EtherscanError } from './etherscan-errors.js';
import type { EtherscanModule } from './module.js';
import { addressListParam, parseParams, type EtherscanParams } from './params.js';
import { contractCreation, sourceCode, UNVERIFIED_SOURCE } from './records.js';

/** The most addresses one `getcontractcreation` reads, as Etherscan allows. */
const MAX_CREATIONS = 5;

const creationParams = z.object({
  contractaddresses: addressListParam,
});
const proxyParams = z.object({ address: addressSchema, expectedimplementation: optionalAddressSchema });
const guidParams = z.object({ guid: z.string().min(1, 'is required').max(100, 'is too long') });

/**
 * `verifysourcecode`'s form fields, by their lower-cased names. Both spellings of the constructor
 * arguments are taken (`constructorArguements` is Etherscan's own); an argument hex may come
 * without `0x`, as forge sends it.
 */
const verifyParams = z.object({
  contractaddress: addressSchema,
  sourcecode: verificationFields.sourceCode,
  codeformat: verificationFields.codeFormat.optional(),
  contractname: verificationFields.contractName,
  compilerversion: verificationFields.compilerVersion,
  optimizationused: verificationFields.optimizationUsed.optional(),
  runs: verificationFields.runs.optional(),
  evmversion: z.string().optional(),
  constructorarguements: z.string().optional(),
  constructorarguments: z.string().optional(),
  licensetype: verificationFields.licenseType.optional(),
});

/** Etherscan's words for an address without code (hardhat-verify and forge look for them). */
class NoContractCodeError extends EtherscanError {
  constructor(address: Hex) {
    super(`Unable to locate ContractCode at ${address}`);
  }
}

class TooManyContractsError extends EtherscanError {
  constructor() {
    super(`Error! Too many contract addresses: at most ${MAX_CREATIONS}`);
  }
}

class UnknownGuidError extends EtherscanError {
  constructor() {
    super('Unknown UID');
  }
}

/** Verification writes: a caller with the `write` scope (an API key, as Etherscan asks for one). */
function mustWrite(caller: Principal | null): void {
  if (caller === null) throw new UnauthorizedError();
  if (!holdsScope(caller, 'write')) throw new ForbiddenError();
}

/** A failed verification as Etherscan answers it, plus why (`reason`: Etherscan's envelope has no field for it). */
type FailedVerificationAnswer = EtherscanAnswer<string> & { reason: string };

/**
 * A job as `checkverifystatus` / `checkproxyverification` tell it: OK only once verified. A failed
 * source verification answers exactly Etherscan's `Fail - Unable to verify`, the text clients
 * match (hardhat-verify's `isFailure()` compares it whole), with the reason beside it.
 */
function jobStatus(job: StoredVerificationJob): EtherscanAnswer<string> | FailedVerificationAnswer {
  if (job.status === 'verified') return ok(job.message);
  const failed = VERIFICATION_MESSAGES.failed;
  if (job.status === 'failed' && job.message.startsWith(failed)) {
    return { ...notOk(failed), reason: job.message.slice(failed.length).replace(/^\.\s*/, '') };
  }
  return notOk(job.message);
}

/** The `contract` module: source verification (Etherscan's jobs and texts), verified ABIs and sources. */
export function contractModule(services: Services): EtherscanModule {
  /** The contract record for its proxy fields; `null` where no contract is left at the address. */
  async function contractOrNull(address: Hex): Promise<ContractRecord | null> {
    try {
      return await services.contracts.contract(address);
    } catch (error) {
      if (error instanceof ContractNotFoundError) return null;
      throw error;
    }
  }

  /** Runs a verification write, answering an address without code in Etherscan's words. */
  async function onContract<T>(address: Hex, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof ContractNotFoundError) throw new NoContractCodeError(address);
      throw error;
    }
  }

  /** A factory's init code: the input of the creation frame that made `address` in the transaction's call trace. */
  async function factoryInitCode(creation: ContractCreationRecord): Promise<string> {
    const frames = [await services.traces.trace(creation.transactionHash)];
    for (let frame = frames.pop(); frame; frame = frames.pop()) {
      if (frame.type.startsWith('CREATE') && frame.to === creation.address && frame.error === null) return frame.input;
      frames.push(...frame.calls);
    }
    // The node's trace no longer shows the creation the indexer saw in it (a reorg since): nothing to tell.
    return '';
  }

  async function job(params: EtherscanParams): Promise<StoredVerificationJob> {
    const found = await services.verification.job(parseParams(guidParams, params).guid);
    if (!found) throw new UnknownGuidError();
    return found;
  }

  return {
    actions: {
      async verifysourcecode(params, caller) {
        mustWrite(caller);
        const fields = parseParams(verifyParams, params);
        const input: VerificationInput = {
          address: fields.contractaddress,
          sourceCode: fields.sourcecode,
          codeFormat: fields.codeformat,
          contractName: fields.contractname,
          compilerVersion: fields.compilerversion,
          optimizationUsed: fields.optimizationused,
          runs: fields.runs,
          evmVersion: fields.evmversion === undefined || fields.evmversion === '' ? undefined : fields.evmversion.toLowerCase(),
          constructorArguments: fields.constructorarguements || fields.constructorarguments || undefined,
          licenseType: fields.licensetype,
        };
        const submitted = await onContract(fields.contractaddress, () => services.verification.submit(input));
        // Etherscan refuses the submission itself; clients look for this text.
        if (submitted.message === VERIFICATION_MESSAGES.alreadyVerified) return notOk('Contract source code already verified');
        return ok(submitted.guid);
      },

      async checkverifystatus(params) {
        return jobStatus(await job(params));
      },

      async verifyproxycontract(params, caller) {
        mustWrite(caller);
        const { address, expectedimplementation } = parseParams(proxyParams, params);
        return ok((await onContract(address, () => services.verification.verifyProxy(address, expectedimplementation))).guid);
      },

      async checkproxyverification(params) {
        return jobStatus(await job(params));
      },

      /** Creator, transaction, block, time, factory and init code of each of up to 5 contracts, in the order asked; unknown ones are left out. */
      async getcontractcreation(params) {
        const { contractaddresses } = parseParams(creationParams, params);
        if (contractaddresses.length > MAX_CREATIONS) throw new TooManyContractsError();
        const creations = (await Promise.all(contractaddresses.map((address) => services.contracts.creation(address)))).filter((found) => found !== null);
        if (creations.length === 0) return { status: '0', message: 'No data found', result: null };
        return ok(
          await Promise.all(
            creations.map(async (creation) => contractCreation(creation, creation.initCode ?? (await factoryInitCode(creation)))),
          ),
        );
      },

      async getabi(params) {
        const { address } = parseParams(addressParams, params);
        return ok(JSON.stringify(await services.contracts.abi(address)));
      },

      async getsourcecode(params) {
        const { address } = parseParams(addressParams, params);
        const verified = await services.contracts.verified(address);
        if (!verified) return ok([UNVERIFIED_SOURCE]);
        return ok([sourceCode(verified, await contractOrNull(address))]);
      },
    },
  };
}
