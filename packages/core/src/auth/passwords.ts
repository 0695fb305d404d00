import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** `Algorithm.Argon2id`: the library's enum is `const`, which isolated modules cannot read. */
const ARGON2ID = 2 as Algorithm;

/**
 * argon2id at OWASP's recommended minimum (19 MiB, 2 passes, 1 lane), written out rather than
 * left to the library's defaults so a dependency update cannot lower it.
 */
export const ARGON2_PARAMETERS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes and checks passwords; stored hashes are PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$…`). */
export class PasswordHasher {
  /** Verified against for unknown emails, so a login costs the same whether the email exists or not. */
  #dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password, ARGON2_PARAMETERS);
  }

  /** Whether `password` matches `stored`; `null` (no such user) checks against a dummy hash and is always false. */
  async verify(stored: string | null, password: string): Promise<boolean> {
    this.#dummy ??= this.hash('chainlens: a password no account has');
    const target = stored ?? (await this.#dummy);
    const matches = await verify(target, password).catch(() => false);
    return stored !== null && matches;
  }
}
