import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { encodeAbiParameters } from 'viem';
import { expect, it } from 'vitest';
import { compileContracts } from '@chainlens/devchain';
import { createExplorer, type Hex } from '@chainlens/core';
import { call, errorEnvelope, get, indexedToHead, signUp, type ApiContext } from './context.js';

const VERIFY = '/api/v1/contract/verify';

/** A contract in two files: an import, immutables, a custom error, constructor arguments. */
const GREETER = {
  'contracts/Greeter.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "./access/Ownable.sol";

contract Greeter is Ownable {
    string public greeting;
    uint256 public immutable deployedAt;

    event GreetingChanged(string greeting);

    constructor(string memory greeting_, address owner_) Ownable(owner_) {
        greeting = greeting_;
        deployedAt = block.number;
    }

    function setGreeting(string calldata greeting_) external onlyOwner {
        greeting = greeting_;
        emit GreetingChanged(greeting_);
    }
}
`,
  'contracts/access/Ownable.sol': `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

abstract contract Ownable {
    address public immutable owner;

    error NotOwner(address caller);

    constructor(address owner_) {
        owner = owner_;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }
}
`,
};

/** An implementation and a minimal EIP-1967 proxy in front of it, in one file. */
const PROXIED = {
  'Proxied.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Box {
    uint256 public value;

    function store(uint256 value_) external {
        value = value_;
    }
}

contract BoxProxy {
    bytes32 private constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;

    constructor(address implementation) {
        assembly { sstore(IMPLEMENTATION_SLOT, implementation) }
    }

    fallback() external payable {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), sload(IMPLEMENTATION_SLOT), 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}
`,
};

/** The settings `compileContracts` deploys with. */
const SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' };

function standardJson(sources: Record<string, string | { urls: string[] }>, settings: Record<string, unknown> = SETTINGS): string {
  return JSON.stringify({
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([path, source]) => [path, typeof source === 'string' ? { content: source } : source])),
    settings,
  });
}

/** viaIR with the optimizer over many loops: seconds of work for solc. */
function heavySource(functions: number): string {
  const body = Array.from(
    { length: functions },
    (_, i) =>
      `function f${i}(uint256 a, uint256 b) external pure returns (uint256 r) { for (uint256 i = 0; i < a; i++) { r += (b * i + ${i}) ** 3 % (i + 7); r ^= uint256(keccak256(abi.encode(r, i, ${i}))); } }`,
  );
  return `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Heavy {\n${body.join('\n')}\n}\n`;
}

/** `POST /contract/verify`: compiling submitted source and matching it against the chain. */
export function verificationTests(ctx: () => ApiContext): void {
  /** Deploys `name` (from dev account 6, which no other test uses) and waits until it is indexed. */
  async function deploy(sources: Record<string, string>, name: string, args: unknown[] = []): Promise<Hex> {
    const { abi, bytecode } = (await compileContracts(sources))[name]!;
    const hash = await ctx().chain.walletClients[6]!.deployContract({ abi, bytecode, args });
    const address = (await ctx().chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    await indexedToHead(ctx());
    return address.toLowerCase() as Hex;
  }

  const writer = async () => (await signUp(ctx())).bearer;
  const greeterBody = (address: Hex, sources: Record<string, string> = GREETER, settings = SETTINGS) => ({
    address,
    codeformat: 'solidity-standard-json-input',
    sourceCode: standardJson(sources, settings),
    contractName: 'contracts/Greeter.sol:Greeter',
    compiler: 'v0.8.37+commit.f401782d',
  });

  it('POST /contract/verify verifies a multi-file contract with an import, immutables and constructor arguments, with a write key', async () => {
    const owner = ctx().chain.accounts[4]!.address;
    const address = await deploy(GREETER, 'Greeter', ['hello', owner]);
    const { token } = await signUp(ctx());
    const key = (await call(ctx(), 'POST', '/api/v1/auth/api-keys', { name: 'verifier', scopes: ['write'] }, { authorization: `Bearer ${token}` })).body.result.key as string;
    const arguments_ = encodeAbiParameters([{ type: 'string' }, { type: 'address' }], ['hello', owner]);
    const { status, body } = await call(ctx(), 'POST', VERIFY, { ...greeterBody(address), constructorArguments: arguments_.slice(2) }, { 'x-api-key': key });
    expect(status).toBe(200);
    expect(body).toEqual({ status: '1', message: 'Contract verification successful', result: { guid: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'verified' } });
    expect(await ctx().explorer.services.verification.job(body.result.guid)).toMatchObject({ status: 'verified', address, message: 'Pass - Verified' });
    expect(await ctx().explorer.storage.getVerifiedContract(address)).toMatchObject({
      name: 'Greeter',
      path: 'contracts/Greeter.sol',
      compilerVersion: '0.8.37+commit.f401782d',
      sources: GREETER,
      license: 'MIT',
      constructorArguments: arguments_.toLowerCase(),
      runtimeMatch: 'full',
      creationMatch: 'full',
    });
  });

  it('POST /contract/verify takes a single file and the short compiler version, and matches partially when only the metadata differs', async () => {
    const implementation = await deploy(PROXIED, 'Box');
    const single = { address: implementation, sourceCode: PROXIED['Proxied.sol'], compiler: '0.8.37', optimizationUsed: true, runs: 200, evmVersion: 'cancun' };
    // Named Box.sol rather than Proxied.sol: the metadata hash differs, the code does not.
    const partial = await call(ctx(), 'POST', VERIFY, { ...single, contractName: 'Box' }, await writer());
    expect(partial.status).toBe(200);
    expect(partial.body.message).toBe('Contract verification successful');
    expect(await ctx().explorer.storage.getVerifiedContract(implementation)).toMatchObject({ path: 'Box.sol', runtimeMatch: 'partial', creationMatch: 'partial', license: 'MIT' });
  });

  it('POST /contract/verify verifies a proxy, whose record shows its verified implementation', async () => {
    const implementation = await deploy(PROXIED, 'Box');
    const proxy = await deploy(PROXIED, 'BoxProxy', [implementation]);
    const single = { sourceCode: PROXIED['Proxied.sol'], compiler: '0.8.37', optimizationUsed: '1', runs: '200', evmVersion: 'cancun' };
    const headers = await writer();
    expect((await call(ctx(), 'POST', VERIFY, { ...single, address: implementation, contractName: 'Proxied.sol:Box' }, headers)).status).toBe(200);
    const verified = await call(ctx(), 'POST', VERIFY, { ...single, address: proxy, contractName: 'Proxied.sol:BoxProxy' }, headers);
    expect(verified.status).toBe(200);
    expect(await ctx().explorer.storage.getVerifiedContract(proxy)).toMatchObject({ name: 'BoxProxy', runtimeMatch: 'full', constructorArguments: encodeAbiParameters([{ type: 'address' }], [implementation]) });
    const record = await get(ctx(), `/api/v1/contract/${proxy}`);
    expect(record.body.result).toMatchObject({ isProxy: true, proxyType: 'EIP-1967', implementation });
    expect(await ctx().explorer.storage.getVerifiedContract(record.body.result.implementation)).toMatchObject({ address: implementation, name: 'Box' });
  });

  it('POST /contract/verify answers a verified contract as already verified', async () => {
    const address = await deploy(GREETER, 'Greeter', ['again', ctx().chain.accounts[4]!.address]);
    const headers = await writer();
    const first = await call(ctx(), 'POST', VERIFY, greeterBody(address), headers);
    const second = await call(ctx(), 'POST', VERIFY, greeterBody(address), headers);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ status: '1', message: 'Contract source code already verified', result: { guid: expect.any(String), status: 'verified' } });
    expect(second.body.result.guid).not.toBe(first.body.result.guid);
    expect(await ctx().explorer.services.verification.job(second.body.result.guid)).toMatchObject({ status: 'verified', message: 'Already Verified' });
  });

  it('POST /contract/verify 400s source that does not match, saying what differed', async () => {
    const address = await deploy(GREETER, 'Greeter', ['hi', ctx().chain.accounts[4]!.address]);
    const changed = { ...GREETER, 'contracts/Greeter.sol': GREETER['contracts/Greeter.sol'].replace('emit GreetingChanged(greeting_);', '') };
    const { status, body } = await call(ctx(), 'POST', VERIFY, greeterBody(address, changed), await writer());
    expect(status).toBe(400);
    expect(body.status).toBe('0');
    expect(body.message).toMatch(/^Error! Bytecode does not match: the compiled runtime code is \d+ bytes, the chain's \d+ \(metadata left out\); compiled with solc 0\.8\.37\+commit\.f401782d, optimizer on with 200 runs, evmVersion cancun: check the source, the compiler version and the settings$/);
    expect(await ctx().explorer.storage.getVerifiedContract(address)).toBeNull();
  });

  it('POST /contract/verify 400s other compiler settings and other constructor arguments, saying what differed', async () => {
    const owner = ctx().chain.accounts[4]!.address;
    const address = await deploy(GREETER, 'Greeter', ['settings', owner]);
    const headers = await writer();
    const unoptimized = await call(ctx(), 'POST', VERIFY, greeterBody(address, GREETER, { ...SETTINGS, optimizer: { enabled: false, runs: 200 } }), headers);
    expect(unoptimized.status).toBe(400);
    expect(unoptimized.body.message).toMatch(/^Error! Bytecode does not match: the compiled runtime code is \d+ bytes, the chain's \d+ .*optimizer off, evmVersion cancun/);
    const runs = await call(ctx(), 'POST', VERIFY, greeterBody(address, GREETER, { ...SETTINGS, optimizer: { enabled: true, runs: 1 } }), headers);
    expect(runs.status).toBe(400);
    expect(runs.body.message).toMatch(/^Error! Bytecode does not match: .*optimizer on with 1 runs, evmVersion cancun/);
    const otherArguments = encodeAbiParameters([{ type: 'string' }, { type: 'address' }], ['other', owner]);
    const actualArguments = encodeAbiParameters([{ type: 'string' }, { type: 'address' }], ['settings', owner]).toLowerCase();
    const wrongArguments = await call(ctx(), 'POST', VERIFY, { ...greeterBody(address), constructorArguments: otherArguments }, headers);
    expect(wrongArguments.status).toBe(400);
    expect(wrongArguments.body).toEqual(
      errorEnvelope(`Error! Bytecode does not match: the constructor arguments differ: submitted ${otherArguments.toLowerCase()}, the creation transaction has ${actualArguments}`),
    );
    expect(await ctx().explorer.storage.getVerifiedContract(address)).toBeNull();
  });

  it('POST /contract/verify 400s a compiler version that is not available, naming it and where it looked', async () => {
    const address = await deploy(GREETER, 'Greeter', ['old', ctx().chain.accounts[4]!.address]);
    const { status, body } = await call(ctx(), 'POST', VERIFY, { ...greeterBody(address), compiler: 'v0.8.20+commit.a1b79de6' }, await writer());
    expect(status).toBe(400);
    expect(body).toEqual(
      errorEnvelope(
        'Error! Compiler version not available: v0.8.20+commit.a1b79de6 is not the bundled solc (0.8.37) and no compilers directory is configured (verification.compilersDir)',
      ),
    );
  });

  it('POST /contract/verify compiles only the submitted sources: files on disk and URLs are neither read nor fetched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-verify-'));
    const helper = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nlibrary Helper { function one() internal pure returns (uint256) { return 1; } }\n';
    writeFileSync(join(dir, 'Helper.sol'), helper);
    let requests = 0;
    const server = createServer((_request, response) => {
      requests++;
      response.end(helper);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const headers = await writer();
      const importing = (path: string) => `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nimport "${path}";\ncontract Main { function f() external pure returns (uint256) { return Helper.one(); } }\n`;
      const verify = (sources: Record<string, string | { urls: string[] }>) =>
        call(ctx(), 'POST', VERIFY, { address: ctx().demo.contracts.token, codeformat: 'solidity-standard-json-input', sourceCode: standardJson(sources), contractName: 'Main.sol:Main', compiler: '0.8.37' }, headers);
      for (const path of [join(dir, 'Helper.sol'), `file://${join(dir, 'Helper.sol')}`, `${origin}/Helper.sol`]) {
        const { status, body } = await verify({ 'Main.sol': importing(path) });
        expect(status, path).toBe(400);
        expect(body.message, path).toBe(
          `Error! Compilation failed: ParserError: Source "${path}" not found: not among the submitted sources (ChainLens compiles only what was submitted: it reads no file and fetches no URL) (Main.sol)`,
        );
      }
      const byUrl = await verify({ 'Main.sol': importing('Helper.sol'), 'Helper.sol': { urls: [`${origin}/Helper.sol`] } });
      expect(byUrl.status).toBe(400);
      expect(byUrl.body).toEqual(errorEnvelope('Error! Invalid request: sourceCode: sources["Helper.sol"] has no content: only submitted sources are compiled, urls are never fetched'));
      expect(requests).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('POST /contract/verify refuses callers without credentials (401) and read-only keys (403) before compiling', async () => {
    const address = await deploy(GREETER, 'Greeter', ['refused', ctx().chain.accounts[4]!.address]);
    const anonymous = await call(ctx(), 'POST', VERIFY, greeterBody(address));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(errorEnvelope('Unauthorized'));
    const { token } = await signUp(ctx());
    const key = (await call(ctx(), 'POST', '/api/v1/auth/api-keys', { name: 'reader', scopes: ['read'] }, { authorization: `Bearer ${token}` })).body.result.key as string;
    const reader = await call(ctx(), 'POST', VERIFY, greeterBody(address), { 'x-api-key': key });
    expect(reader.status).toBe(403);
    expect(reader.body).toEqual(errorEnvelope('Forbidden: insufficient scope'));
    expect(await ctx().explorer.storage.getVerifiedContract(address)).toBeNull();
  });

  it('POST /contract/verify ends a compilation at its time limit with a clear error, and the server answers meanwhile and after', async () => {
    const explorer = await createExplorer({
      rpcUrl: ctx().chain.rpcUrl,
      storage: await ctx().options.storage(),
      logger: pino({ level: 'silent' }),
      // The loop below asks as fast as it is answered.
      rateLimits: { enabled: false },
      verification: { timeoutMs: 300 },
    });
    const served = await ctx().options.serve(explorer);
    const limited: ApiContext = { ...ctx(), explorer, url: served.url };
    try {
      const headers = (await signUp(limited)).bearer;
      const verifying = call(limited, 'POST', VERIFY, { address: ctx().demo.contracts.token, codeformat: 'solidity-standard-json-input', sourceCode: standardJson({ 'Heavy.sol': heavySource(40) }, { viaIR: true, optimizer: { enabled: true, runs: 200 } }), contractName: 'Heavy.sol:Heavy', compiler: '0.8.37' }, headers);
      let settled = false;
      const settle = () => (settled = true);
      void verifying.then(settle, settle);
      let answeredMeanwhile = 0;
      while (!settled) {
        if ((await get(limited, '/api/v1/health')).status === 200 && !settled) answeredMeanwhile++;
      }
      const { status, body } = await verifying;
      expect(status).toBe(400);
      expect(body).toEqual(errorEnvelope('Error! Compilation failed: it ran longer than the time limit of 300 ms'));
      // Compiling in a worker thread: the event loop kept serving other requests.
      expect(answeredMeanwhile).toBeGreaterThanOrEqual(3);
      expect((await get(limited, '/api/v1/health')).status).toBe(200);
    } finally {
      await served.close();
      await explorer.close();
    }
  });
}
