import { z } from 'zod';
import { defineRoute, RouteResult, type Route } from '../../http/index.js';
import { addressSchema } from '../../values/hex.js';
import { verificationFields } from './verification-input.js';
import type { VerificationService } from './verification-service.js';

/** The spec's verification fields, plus Etherscan's `evmVersion`, `licenseType` and `codeformat`. */
const verifyBody = z.object({
  address: addressSchema,
  sourceCode: verificationFields.sourceCode,
  compiler: verificationFields.compilerVersion,
  contractName: verificationFields.contractName,
  optimizationUsed: verificationFields.optimizationUsed.optional(),
  runs: verificationFields.runs.optional(),
  constructorArguments: verificationFields.constructorArguments.optional(),
  evmVersion: verificationFields.evmVersion.optional(),
  licenseType: verificationFields.licenseType.optional(),
  codeformat: verificationFields.codeFormat.optional(),
});

/** `POST /api/v1/contract/verify`: a contract's source, verified as a job. */
export function verificationRoutes(verification: VerificationService): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/contract/verify',
      response: z.object({ guid: z.string(), status: z.literal('verified') }),
      errors: ['CONTRACT_NOT_FOUND', 'COMPILER_NOT_AVAILABLE', 'COMPILATION_FAILED', 'BYTECODE_MISMATCH', 'UPSTREAM_UNAVAILABLE'],
      auth: 'user',
      scope: 'write',
      summary: "Verifies a contract's source: compiles it with solc and matches the chain's code; a mismatch says what differed",
      body: verifyBody,
      handler: async ({ body }) => {
        const { job, alreadyVerified } = await verification.verify({
          address: body.address,
          sourceCode: body.sourceCode,
          codeFormat: body.codeformat,
          contractName: body.contractName,
          compilerVersion: body.compiler,
          optimizationUsed: body.optimizationUsed,
          runs: body.runs,
          constructorArguments: body.constructorArguments,
          evmVersion: body.evmVersion,
          licenseType: body.licenseType,
        });
        return new RouteResult({ guid: job.guid, status: 'verified' as const }, alreadyVerified ? 'Contract source code already verified' : 'Contract verification successful');
      },
    }),
  ];
}
