import { describe, expect } from 'vitest';
import type { StoredVerificationJob, StoredVerifiedContract } from '@chainlens/core';
import { fixtureAddress, makeChain } from '../fixtures.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

/**
 * Source text that storage must keep byte for byte: CRLF and lone CR line ends, tabs, non-ASCII
 * and astral characters, NUL, backslash escapes, quotes and SQL that would break a careless
 * statement, and a `$1` placeholder.
 */
const AWKWARD_SOURCE =
  "// SPDX-License-Identifier: MIT\r\npragma solidity ^0.8.0;\r\n\t// Grüße — “quoted” 名前 🚀\u0000\r" +
  "contract Token { string s = \"it's \\\"x\\\" \\\\ \\u0041\"; } // '; DROP TABLE verified_contracts; -- $1 \\x00\n";

/** A verified contract at `label`'s address, every field set. */
function makeVerifiedContract(label: string, changes: Partial<StoredVerifiedContract> = {}): StoredVerifiedContract {
  return {
    address: fixtureAddress(label),
    name: 'Token',
    path: 'contracts/Token.sol',
    compilerVersion: '0.8.37+commit.f401782d',
    compilerSettings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      libraries: {},
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode'] } },
    },
    sources: {
      'contracts/Token.sol': AWKWARD_SOURCE,
      'lib/Ownable.sol': 'abstract contract Ownable {}\n',
      'lib/ünïcode path/Ä.sol': '',
    },
    abi: [
      { type: 'constructor', inputs: [{ name: 'supply', type: 'uint256', internalType: 'uint256' }], stateMutability: 'nonpayable' },
      {
        type: 'event',
        name: 'Transfer',
        anonymous: false,
        inputs: [
          { name: 'from', type: 'address', indexed: true, internalType: 'address' },
          { name: 'to', type: 'address', indexed: true, internalType: 'address' },
          { name: 'value', type: 'uint256', indexed: false, internalType: 'uint256' },
        ],
      },
      { type: 'function', name: 'totalSupply', inputs: [], outputs: [{ name: '', type: 'uint256', internalType: 'uint256' }], stateMutability: 'view' },
    ],
    license: 'MIT',
    constructorArguments: '0x00000000000000000000000000000000000000000000000000000000000003e8',
    runtimeMatch: 'full',
    creationMatch: 'partial',
    verifiedAt: '2026-11-01T10:00:00.123Z',
    ...changes,
  };
}

/** A pending source verification job with `guid`, of an address derived from it. */
function makeVerificationJob(guid: string, changes: Partial<StoredVerificationJob> = {}): StoredVerificationJob {
  return {
    guid,
    kind: 'source',
    address: fixtureAddress(guid),
    status: 'pending',
    message: 'Pending in queue',
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    ...changes,
  };
}

const byAddress = (a: StoredVerifiedContract, b: StoredVerifiedContract) => (a.address < b.address ? -1 : 1);

/** putVerifiedContract, getVerifiedContract(s), putVerificationJob, getVerificationJob. */
export function verificationTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('verified contracts', () => {
    test('a verified contract reads back equal, and an unknown address is null', async (storage) => {
      const contract = makeVerifiedContract('a');
      await storage.putVerifiedContract(contract);
      expect(await storage.getVerifiedContract(contract.address)).toEqual(contract);
      expect(await storage.getVerifiedContract(fixtureAddress('nobody'))).toBeNull();
    });

    test('source files come back byte for byte and in their order', async (storage) => {
      const contract = makeVerifiedContract('a');
      await storage.putVerifiedContract(contract);
      const read = (await storage.getVerifiedContract(contract.address))!;
      expect(Object.entries(read.sources)).toStrictEqual(Object.entries(contract.sources));
      expect(read.sources['contracts/Token.sol']).toBe(AWKWARD_SOURCE);
    });

    test('a put replaces the whole record, nulls and empty lists included', async (storage) => {
      await storage.putVerifiedContract(makeVerifiedContract('a'));
      const replaced = makeVerifiedContract('a', {
        name: 'Other',
        path: 'Other.sol',
        compilerVersion: '0.8.20+commit.a1b79de6',
        compilerSettings: { optimizer: { enabled: false, runs: 200 } },
        sources: { 'Other.sol': 'contract Other {}' },
        abi: [],
        license: null,
        constructorArguments: '0x',
        runtimeMatch: 'partial',
        creationMatch: null,
        verifiedAt: '2026-12-24T23:59:59.999Z',
      });
      await storage.putVerifiedContract(replaced);
      expect(await storage.getVerifiedContract(replaced.address)).toEqual(replaced);
    });

    test('getVerifiedContracts answers the records that exist among many addresses, once each', async (storage) => {
      const contracts = ['a', 'b', 'c'].map((label) => makeVerifiedContract(label));
      for (const contract of contracts) await storage.putVerifiedContract(contract);
      const found = await storage.getVerifiedContracts([fixtureAddress('c'), fixtureAddress('nobody'), fixtureAddress('a'), fixtureAddress('a')]);
      expect(found.sort(byAddress)).toEqual([contracts[0]!, contracts[2]!].sort(byAddress));
      expect(await storage.getVerifiedContracts([])).toEqual([]);
    });

    test('a returned record is a copy: changing it changes nothing stored', async (storage) => {
      const contract = makeVerifiedContract('a');
      await storage.putVerifiedContract(contract);
      const read = (await storage.getVerifiedContract(contract.address))!;
      read.abi.push({ type: 'fallback' });
      read.sources['contracts/Token.sol'] = 'changed';
      contract.abi.length = 0;
      expect(await storage.getVerifiedContract(contract.address)).toEqual(makeVerifiedContract('a'));
    });
  });

  describe('verification jobs', () => {
    test('a job reads back equal by its guid', async (storage) => {
      const job = makeVerificationJob('3f0c8a8e-4d0b-4f7e-9a57-0d7f1e2b6c11', { kind: 'proxy' });
      await storage.putVerificationJob(job);
      expect(await storage.getVerificationJob(job.guid)).toEqual(job);
    });

    test('a put with a known guid replaces the job', async (storage) => {
      const guid = 'ezq878u486pzijkvvmerl6a9mzwhv6sefgvqi5tkwceejc7tvn';
      await storage.putVerificationJob(makeVerificationJob(guid));
      const failed = makeVerificationJob(guid, {
        status: 'failed',
        message: "Fail - Unable to verify: bytecode differs at 0x1f; DROP TABLE verification_jobs; -- 'é'",
        updatedAt: '2026-11-01T10:00:07.250Z',
      });
      await storage.putVerificationJob(failed);
      expect(await storage.getVerificationJob(guid)).toEqual(failed);
      const other = makeVerificationJob('other', { status: 'verified', message: 'Pass - Verified' });
      await storage.putVerificationJob(other);
      expect(await storage.getVerificationJob(guid)).toEqual(failed);
      expect(await storage.getVerificationJob('other')).toEqual(other);
    });

    test('an unknown guid is null, whatever text it is', async (storage) => {
      await storage.putVerificationJob(makeVerificationJob('known'));
      for (const guid of ['unknown', '', 'KNOWN', "known' OR '1'='1", 'known\u0000']) {
        expect(await storage.getVerificationJob(guid)).toBeNull();
      }
    });
  });

  test('rollbackTo leaves verified contracts and jobs alone', async (storage) => {
    await writeChain(storage, makeChain({ blocks: 4 }));
    const contract = makeVerifiedContract('a');
    const job = makeVerificationJob('job', { status: 'verified', message: 'Pass - Verified' });
    await storage.putVerifiedContract(contract);
    await storage.putVerificationJob(job);
    await storage.rollbackTo(0n);
    expect(await storage.getVerifiedContract(contract.address)).toEqual(contract);
    expect(await storage.getVerificationJob(job.guid)).toEqual(job);
  });
}
