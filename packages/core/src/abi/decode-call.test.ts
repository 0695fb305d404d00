import { encodeAbiParameters, encodeErrorResult, encodeFunctionData, encodeFunctionResult, parseAbi, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { COMMON_CALL_ABI, decodeCallInput, decodeCallOutput, decodeCustomError, errorText } from './decode-call.js';

const TO = '0x00000000000000000000000000000000000000aa';
const erc20 = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);

describe('decodeCallInput', () => {
  it('decodes a call by the first ABI that has its selector, a verified one before the common table', () => {
    const input = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [TO, 5n] });
    expect(decodeCallInput(input, [COMMON_CALL_ABI])?.call).toEqual({
      functionName: 'transfer',
      signature: 'transfer(address,uint256)',
      source: 'common',
      parameters: [
        { name: 'to', type: 'address', value: TO },
        { name: 'value', type: 'uint256', value: '5' },
      ],
    });
    const verified = parseAbi(['function transfer(address recipient, uint256 amount) returns (bool)']);
    expect(decodeCallInput(input, [{ abi: verified, source: 'verified' }, COMMON_CALL_ABI])?.call).toMatchObject({ source: 'verified', parameters: [{ name: 'recipient' }, { name: 'amount' }] });
  });

  it('writes tuples and arrays as JSON, and names unnamed arguments by position', () => {
    const abi = parseAbi(['struct Call3 { address target; bool allowFailure; bytes callData; }', 'function aggregate3(Call3[] calls) payable returns ((bool, bytes)[])']);
    const input = encodeFunctionData({ abi, functionName: 'aggregate3', args: [[{ target: TO, allowFailure: true, callData: '0x1234' }]] });
    expect(decodeCallInput(input, [COMMON_CALL_ABI])?.call.parameters).toEqual([{ name: 'calls', type: 'tuple[]', value: JSON.stringify([{ target: TO, allowFailure: true, callData: '0x1234' }]) }]);
    const unnamed = parseAbi(['function f(uint256, bool)']);
    expect(decodeCallInput(encodeFunctionData({ abi: unnamed, functionName: 'f', args: [1n, true] }), [{ abi: unnamed, source: 'verified' }])?.call.parameters.map((p) => p.name)).toEqual(['arg0', 'arg1']);
  });

  it('leaves undecoded: no selector, an unknown selector, and data too short for the function its selector names', () => {
    expect(decodeCallInput('0x', [COMMON_CALL_ABI])).toBeNull();
    expect(decodeCallInput('0x12345678', [COMMON_CALL_ABI])).toBeNull();
    expect(decodeCallInput('0xa9059cbb00', [COMMON_CALL_ABI])).toBeNull();
    expect(decodeCallInput('not hex at all', [COMMON_CALL_ABI])).toBeNull();
  });
});

describe('decodeCallOutput', () => {
  it("decodes a function's return data, and refuses data that is not its outputs", () => {
    const found = decodeCallInput(encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [TO, 1n] }), [COMMON_CALL_ABI])!;
    expect(decodeCallOutput(found.fn, encodeFunctionResult({ abi: erc20, functionName: 'transfer', result: true }))).toEqual([{ name: 'arg0', type: 'bool', value: 'true' }]);
    expect(decodeCallOutput(found.fn, '0x')).toBeNull();
  });
});

describe('decodeCustomError', () => {
  const abi = parseAbi(['error Nope(uint256 code)', 'error Other(address who)']);

  it('decodes revert data as the custom error of an ABI that declares it, and writes it as a line', () => {
    const data = encodeErrorResult({ abi, errorName: 'Nope', args: [42n] });
    const error = decodeCustomError(data, [parseAbi(['function x()']), abi])!;
    expect(error).toEqual({ errorName: 'Nope', signature: 'Nope(uint256)', parameters: [{ name: 'code', type: 'uint256', value: '42' }] });
    expect(errorText(error)).toBe('Nope(code: 42)');
  });

  it('is null for an error no ABI declares, and for data that does not decode as the declared one', () => {
    expect(decodeCustomError(encodeErrorResult({ abi: parseAbi(['error Unknown()']), errorName: 'Unknown' }), [abi])).toBeNull();
    const selector = encodeErrorResult({ abi, errorName: 'Nope', args: [1n] }).slice(0, 10);
    expect(decodeCustomError(`${selector}00` as Hex, [abi])).toBeNull();
    expect(decodeCustomError(encodeAbiParameters([{ type: 'uint256' }], [1n]), [abi])).toBeNull();
  });
});
