import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

const int = (min: number) => z.number().int().min(min);

const isDirectory = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/** The `verification` slice of the explorer's config: compiling submitted Solidity in worker threads. */
export const verificationConfigSchema = z
  .object({
    /**
     * A directory of solc-js builds, named as binaries.soliditylang.org names them
     * (`soljson-v0.8.20+commit.a1b79de6.js`), for versions other than the bundled solc.
     */
    compilersDir: z
      .string()
      .refine(isDirectory, 'must be an existing directory of soljson-v<version>+commit.<hash>.js compiler builds')
      .transform((dir) => resolve(dir))
      .optional(),
    /** Wall-clock limit of one compilation; its worker is terminated past it. */
    timeoutMs: int(1).default(60_000),
    /** Memory of one compiler worker (its JavaScript heap and the compiler's memory, each); the compiler alone needs about 40 MB. */
    maxMemoryMb: int(48).default(1_024),
    /** Verifications compiling at once. */
    maxConcurrent: int(1).max(64).default(2),
    /** Verifications waiting for a place; beyond them, 429 `Max rate limit reached`. */
    maxQueued: int(0).default(16),
  });

/** The `verification` options, resolved. */
export type VerificationConfig = z.output<typeof verificationConfigSchema>;
