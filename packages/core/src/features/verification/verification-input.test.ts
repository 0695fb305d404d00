import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../errors/index.js';
import { prepareVerification, type VerificationInput } from './verification-input.js';

const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const SOURCE = 'pragma solidity ^0.8.0; contract Counter { uint256 public count; }';

const single = (extra: Partial<VerificationInput> = {}): VerificationInput => ({ address: ADDRESS, sourceCode: SOURCE, contractName: 'Counter', compilerVersion: '0.8.37', ...extra });

function standardJson(sources: Record<string, unknown>, settings: Record<string, unknown> = {}): string {
  return JSON.stringify({ language: 'Solidity', sources, settings });
}

/** The error `prepareVerification` throws for `input`. */
function refusal(input: VerificationInput): InvalidRequestError {
  try {
    prepareVerification(input);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
    throw error;
  }
  throw new Error('the input was accepted');
}

describe('prepareVerification', () => {
  it('makes one file named for the contract, with the optimizer off at 200 runs unless told', () => {
    expect(prepareVerification(single())).toEqual({
      address: ADDRESS.toLowerCase(),
      compilerVersion: '0.8.37',
      target: { path: 'Counter.sol', name: 'Counter' },
      jsonInput: { language: 'Solidity', sources: { 'Counter.sol': { content: SOURCE } }, settings: { optimizer: { enabled: false, runs: 200 } } },
      constructorArguments: null,
      licenseType: undefined,
    });
  });

  it('takes the path from path:Name and the settings, constructor arguments and license as forms send them', () => {
    const request = prepareVerification(
      single({ contractName: 'src/Counter.sol:Counter', optimizationUsed: '1' as never, runs: '999' as never, evmVersion: 'cancun', constructorArguments: 'ABCD', licenseType: '3' as never }),
    );
    expect(request.target).toEqual({ path: 'src/Counter.sol', name: 'Counter' });
    expect(request.jsonInput.settings).toEqual({ optimizer: { enabled: true, runs: 999 }, evmVersion: 'cancun' });
    expect(request.constructorArguments).toBe('0xabcd');
    expect(request.licenseType).toBe(3);
    expect(prepareVerification(single({ evmVersion: 'default', constructorArguments: '' })).jsonInput.settings).toEqual({ optimizer: { enabled: false, runs: 200 } });
    expect(prepareVerification(single({ constructorArguments: '' })).constructorArguments).toBeNull();
  });

  it('reads standard-JSON input, dropping outputSelection and source urls beside content', () => {
    const request = prepareVerification(
      single({
        codeFormat: 'solidity-standard-json-input',
        contractName: 'contracts/A.sol:A',
        sourceCode: standardJson(
          { 'contracts/A.sol': { content: 'import "./B.sol"; contract A is B {}', urls: ['https://example.com/A.sol'] }, 'contracts/B.sol': { content: 'contract B {}' } },
          { optimizer: { enabled: true, runs: 1 }, viaIR: true, outputSelection: { '*': { '*': ['*'] } } },
        ),
      }),
    );
    expect(request.target).toEqual({ path: 'contracts/A.sol', name: 'A' });
    expect(request.jsonInput).toEqual({
      language: 'Solidity',
      sources: { 'contracts/A.sol': { content: 'import "./B.sol"; contract A is B {}' }, 'contracts/B.sol': { content: 'contract B {}' } },
      settings: { optimizer: { enabled: true, runs: 1 }, viaIR: true },
    });
  });

  it.each([
    [single({ compilerVersion: 'latest' }), 'compilerVersion: must be a solc version, e.g. v0.8.37+commit.f401782d or 0.8.37'],
    [single({ address: '0x12' }), 'address: must be a 0x-prefixed 20-byte hex address'],
    [single({ contractName: 'Not A Name' }), 'contractName: must be a contract name, or path:Name (e.g. contracts/Token.sol:Token)'],
    [single({ constructorArguments: '0xabc' }), 'constructorArguments: must be ABI-encoded hex'],
    [single({ sourceCode: '  ' }), 'sourceCode: must not be empty'],
    [single({ codeFormat: 'solidity-standard-json-input' }), 'contractName: must be path:Name for standard-JSON input (e.g. contracts/Token.sol:Token)'],
    [single({ codeFormat: 'solidity-standard-json-input', contractName: 'A.sol:A' }), 'sourceCode: must be the standard-JSON input as JSON text'],
    [single({ codeFormat: 'solidity-standard-json-input', contractName: 'A.sol:A', sourceCode: standardJson({ 'B.sol': { content: '' } }) }), 'contractName: A.sol is not among the submitted sources'],
    [
      single({ codeFormat: 'solidity-standard-json-input', contractName: 'A.sol:A', sourceCode: standardJson({ 'A.sol': { urls: ['https://example.com/A.sol'] } }) }),
      'sourceCode: sources["A.sol"] has no content: only submitted sources are compiled, urls are never fetched',
    ],
  ])('refuses what it cannot compile, naming the field (%#)', (input, message) => {
    expect(refusal(input).message).toBe(`Error! Invalid request: ${message}`);
  });
});
