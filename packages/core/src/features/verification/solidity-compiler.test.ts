import type { JsonInput } from '@ethereum-sourcify/lib-sourcify';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeRequire } from '../../runtime/node-require.js';
import {
  CompilationFailedError,
  CompilationMemoryLimitError,
  CompilationTimeLimitError,
  CompilerNotAvailableError,
} from '../../errors/index.js';
import { SolidityCompiler } from './solidity-compiler.js';
import type { SoliditySettings } from './verification-input.js';

const BUNDLED = (nodeRequire('solc/package.json') as { version: string }).version;
/** A second real solc build on this machine: the one Hardhat (a dev dependency, through hardhat-verify) ships. */
const OTHER_SOLJSON = nodeRequire.resolve('solc/soljson.js', { paths: [dirname(nodeRequire.resolve('hardhat/package.json'))] });
const OTHER_VERSION = '0.8.26+commit.8a97fa7a';

const HELPER = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nlibrary Helper { function one() internal pure returns (uint256) { return 1; } }\n';

function input(sources: Record<string, string | { urls: string[] }>, settings: SoliditySettings = {}): JsonInput {
  return {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([path, source]) => [path, typeof source === 'string' ? { content: source } : (source as never)])),
    settings: { ...settings, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  };
}

/** A contract that imports `path` and uses what it defines. */
const importing = (path: string) => `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nimport "${path}";\ncontract Main { function f() external pure returns (uint256) { return Helper.one(); } }\n`;

/** viaIR with the optimizer over many loops: several seconds of work for solc even on a fast machine. */
function heavySource(functions: number): string {
  const body = Array.from(
    { length: functions },
    (_, i) =>
      `function f${i}(uint256 a, uint256 b) external pure returns (uint256 r) { for (uint256 i = 0; i < a; i++) { r += (b * i + ${i}) ** 3 % (i + 7); r ^= uint256(keccak256(abi.encode(r, i, ${i}))); } }`,
  );
  return `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Heavy {\n${body.join('\n')}\n}\n`;
}

const compilers: SolidityCompiler[] = [];
function compiler(options: Partial<ConstructorParameters<typeof SolidityCompiler>[0]> = {}): SolidityCompiler {
  const made = new SolidityCompiler({ timeoutMs: 60_000, maxMemoryMb: 1_024, maxIdle: 1, ...options });
  compilers.push(made);
  return made;
}

afterAll(async () => {
  await Promise.all(compilers.map((made) => made.close()));
});

describe('SolidityCompiler', () => {
  it('compiles with the bundled solc and tells its long version for either spelling', async () => {
    const solc = compiler();
    const long = await solc.version(BUNDLED);
    expect(long).toMatch(new RegExp(`^${BUNDLED.replace(/\./g, '\\.')}\\+commit\\.[0-9a-f]{8}$`));
    expect(await solc.version(`v${long}`)).toBe(long);
    const output = await solc.compile(long, input({ 'A.sol': 'pragma solidity ^0.8.0; contract A { uint256 public x = 7; }' }));
    expect(output.contracts['A.sol']!['A']!.evm.bytecode.object).toMatch(/^[0-9a-f]{100,}$/);
  });

  it("answers the compiler's errors as a CompilationFailedError naming the file", async () => {
    const failure = await compiler()
      .compile(BUNDLED, input({ 'Broken.sol': 'pragma solidity ^0.8.0; contract Broken { function f() { x = 1; } }' }))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CompilationFailedError);
    expect((failure as Error).message).toMatch(/^Error! Compilation failed: .*\(Broken\.sol\)/);
  });

  describe('reads nothing but its input', () => {
    let dir: string;
    let server: Server;
    let requests = 0;
    let origin: string;

    beforeAll(async () => {
      // A real, valid Solidity file on disk, where each import below would find it.
      dir = mkdtempSync(join(tmpdir(), 'chainlens-imports-'));
      writeFileSync(join(dir, 'Helper.sol'), HELPER);
      mkdirSync(join(dir, 'sub'));
      server = createServer((_request, response) => {
        requests++;
        response.end(HELPER);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => server.close(resolve));
    });

    it('compiles an import that is among the submitted sources', async () => {
      const output = await compiler().compile(BUNDLED, input({ 'Main.sol': importing('./lib/Helper.sol'), 'lib/Helper.sol': HELPER }));
      expect(output.contracts['Main.sol']!['Main']).toBeDefined();
    });

    it.each([
      ['an absolute path', () => importing(join(dir, 'Helper.sol'))],
      ['a file:// URL', () => importing(pathToFileURL(join(dir, 'Helper.sol')).href)],
    ])('refuses an import of a real file by %s', async (_, source) => {
      const failure = await compiler()
        .compile(BUNDLED, input({ 'Main.sol': source() }))
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CompilationFailedError);
      expect((failure as Error).message).toMatch(/not found: not among the submitted sources/);
    });

    it('refuses a ../ import that leaves the submitted sources for a real file', async () => {
      // `<dir>/sub/Main.sol` importing `../Helper.sol` names `<dir>/Helper.sol`, which exists on disk.
      const failure = await compiler()
        .compile(BUNDLED, input({ [join(dir, 'sub', 'Main.sol')]: importing('../Helper.sol') }))
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CompilationFailedError);
      expect((failure as Error).message).toContain(`"${join(dir, 'Helper.sol')}" not found: not among the submitted sources`);
    });

    it('fetches neither imported URLs nor sources[*].urls', async () => {
      const solc = compiler();
      const imported = await solc.compile(BUNDLED, input({ 'Main.sol': importing(`${origin}/Helper.sol`) })).catch((error: unknown) => error);
      expect(imported).toBeInstanceOf(CompilationFailedError);
      const byUrl = await solc.compile(BUNDLED, input({ 'Main.sol': importing('Helper.sol'), 'Helper.sol': { urls: [`${origin}/Helper.sol`] } })).catch((error: unknown) => error);
      expect(byUrl).toBeInstanceOf(CompilationFailedError);
      expect((byUrl as Error).message).toMatch(/not among the submitted sources/);
      expect(requests).toBe(0);
    });
  });

  it('ends a compilation at its time limit and compiles again afterwards', async () => {
    const solc = compiler({ timeoutMs: 1_000 });
    const failure = await solc.compile(BUNDLED, input({ 'Heavy.sol': heavySource(40) }, { viaIR: true, optimizer: { enabled: true, runs: 200 } })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CompilationTimeLimitError);
    expect((failure as Error).message).toBe('Error! Compilation failed: it ran longer than the time limit of 1000 ms');
    const output = await solc.compile(BUNDLED, input({ 'A.sol': 'pragma solidity ^0.8.0; contract A {}' }));
    expect(output.contracts['A.sol']!['A']).toBeDefined();
  });

  it('fails a compilation that needs more memory than its limit, which a larger limit compiles', async () => {
    const big = input({ 'Big.sol': `pragma solidity ^0.8.0; contract Big { string public constant S = "${'x'.repeat(2_000_000)}"; }` });
    const failure = await compiler({ maxMemoryMb: 48 })
      .compile(BUNDLED, big)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CompilationMemoryLimitError);
    expect((failure as Error).message).toBe('Error! Compilation failed: it needed more than the memory limit of 48 MB');
    const output = await compiler({ maxMemoryMb: 512 }).compile(BUNDLED, big);
    expect(output.contracts['Big.sol']!['Big']).toBeDefined();
  });

  describe('compiler builds', () => {
    let dir: string;

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'chainlens-compilers-'));
      symlinkSync(OTHER_SOLJSON, join(dir, `soljson-v${OTHER_VERSION}.js`));
      // Named for a version it is not.
      symlinkSync(OTHER_SOLJSON, join(dir, 'soljson-v0.8.25+commit.b61c2a91.js'));
    });

    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('loads other versions from the compilers directory, by long or short version', async () => {
      const solc = compiler({ compilersDir: dir });
      expect(await solc.version('0.8.26')).toBe(OTHER_VERSION);
      expect(await solc.version(`v${OTHER_VERSION}`)).toBe(OTHER_VERSION);
      const output = await solc.compile(OTHER_VERSION, input({ 'A.sol': 'pragma solidity 0.8.26; contract A {}' }));
      expect(output.contracts['A.sol']!['A']).toBeDefined();
    });

    it('names the missing version and where it looked', async () => {
      await expect(compiler({ compilersDir: dir }).version('v0.8.20+commit.a1b79de6')).rejects.toThrowError(
        new CompilerNotAvailableError(`v0.8.20+commit.a1b79de6 is not the bundled solc (${BUNDLED}) and found no soljson-v0.8.20+commit.a1b79de6.js in ${dir}`),
      );
      await expect(compiler().version('0.8.20')).rejects.toThrowError(
        `Error! Compiler version not available: v0.8.20 is not the bundled solc (${BUNDLED}) and no compilers directory is configured (verification.compilersDir)`,
      );
    });

    it('refuses a build that reports another version than its name', async () => {
      await expect(compiler({ compilersDir: dir }).version('0.8.25')).rejects.toThrowError(
        `Error! Compiler version not available: ${join(dir, 'soljson-v0.8.25+commit.b61c2a91.js')} holds solc ${OTHER_VERSION}, not 0.8.25+commit.b61c2a91`,
      );
    });
  });
});
