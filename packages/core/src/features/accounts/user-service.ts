import { randomUUID } from 'node:crypto';
import { EmailTakenError, InvalidCredentialsError, TokenExpiredError, UnauthorizedError } from '../../errors/index.js';
import type { Throttles } from './throttles.js';
import type { AccountStorage, StoredUser } from '../../storage/index.js';
import { KeptPrincipals } from './kept-principals.js';
import type { PasswordHasher } from '../../auth/passwords.js';
import type { Principal } from '../../auth/principal.js';
import type { Revocation } from '../../auth/revocation.js';
import type { AccessToken, TokenIssuer } from '../../auth/jwt.js';
import { formatUser, type UserRecord } from './user-record.js';

/** The roles a user can hold. */
export const ROLES = ['admin', 'premium', 'user'] as const;
export type Role = (typeof ROLES)[number];

/** Registration input, already validated by the route. */
export interface Registration {
  email: string;
  password: string;
  name: string;
}

/**
 * How long a verified token's caller is trusted without reading storage again. Changes made
 * through the explorer (deactivation, roles) drop it at once here and, through the bus, on every
 * instance; this bounds only what nobody is told of (a row written directly, a bus notice lost).
 */
const VERIFIED_TOKEN_TTL_MS = 1_000;

/** Tokens kept verified at once. */
const MAX_VERIFIED_TOKENS = 10_000;

/**
 * What a token is kept under: the last 16 characters of its signature (some 90 bits of an HMAC).
 * Hashing a whole token, some 240 characters, as a map key cost about as much as the rest of a
 * kept token's check together; the whole text is still compared.
 */
const signatureEnd = (token: string) => token.slice(-16);

/**
 * The form tokens are issued in: three base64url parts. Only tokens of this form are kept, so a
 * kept token is one the `Bearer` header's grammar accepts (see {@link UserService.keptCaller}).
 */
const COMPACT_TOKEN = /^[\w-]+\.[\w-]+\.[\w-]+$/;

type TokenPrincipal = Extract<Principal, { kind: 'jwt' }>;

/** Accounts: registration, login, token refresh, and role and status changes. */
export class UserService {
  /**
   * Callers of tokens found valid lately, by token (kept under its signature's end): a repeated
   * token is answered without the signature check, a storage read or a promise. {@link forget}
   * drops them at once.
   */
  readonly #verified = new KeptPrincipals<TokenPrincipal>({ max: MAX_VERIFIED_TOKENS, ttlMs: VERIFIED_TOKEN_TTL_MS, keyOf: signatureEnd });

  constructor(
    private readonly storage: AccountStorage,
    private readonly passwords: PasswordHasher,
    private readonly tokens: TokenIssuer,
    private readonly throttles: Throttles,
    private readonly now: () => number,
    /**
     * Told when a user is deactivated or their roles change, so connections open on their
     * credentials are checked again and what instances keep verified of them is dropped;
     * awaited before the change is answered.
     */
    private readonly onRevoked: (revocation: Revocation) => void | Promise<void> = () => {},
  ) {}

  /**
   * Creates a user with the role `user`; a taken email is {@link EmailTakenError}. Attempts are
   * counted per client address `ip` (the registration throttle).
   */
  async register(input: Registration, ip: string): Promise<UserRecord> {
    await this.throttles.registration(ip);
    const user: StoredUser = {
      id: randomUUID(),
      email: canonicalEmail(input.email),
      name: input.name,
      passwordHash: await this.passwords.hash(input.password),
      roles: ['user'],
      isActive: true,
      createdAt: new Date(this.now()),
    };
    if (!(await this.storage.createUser(user))) throw new EmailTakenError();
    return formatUser(user);
  }

  /**
   * A token for valid credentials. An unknown email, a wrong password and a deactivated account
   * all answer {@link InvalidCredentialsError} after one password check each, so neither the
   * text nor the time tells them apart; each counts as a failure of that email (the login
   * throttle, which then refuses further attempts for a while). A successful login, or one that
   * storage could not answer, uses up none of the allowance.
   */
  async login(email: string, password: string): Promise<AccessToken> {
    const canonical = canonicalEmail(email);
    const attempt = await this.throttles.beginLogin(canonical);
    const user = await this.checkPassword(canonical, password).catch(async (error: unknown) => {
      await attempt.release();
      throw error;
    });
    if (!user) {
      await attempt.failed();
      throw new InvalidCredentialsError();
    }
    await attempt.release();
    return this.tokens.issue(user.id);
  }

  /** The active user whose password `password` is, else `null`; one password check either way. */
  private async checkPassword(email: string, password: string): Promise<StoredUser | null> {
    const user = await this.storage.getUserByEmail(email);
    const valid = await this.passwords.verify(user?.passwordHash ?? null, password);
    return valid && user?.isActive ? user : null;
  }

  /** A fresh token for the caller. */
  refresh(principal: Principal): Promise<AccessToken> {
    return this.tokens.issue(principal.user.id);
  }

  /**
   * The caller a bearer token proves; an expired token is {@link TokenExpiredError}, a deactivated
   * or deleted user {@link UnauthorizedError}. A token verified lately is answered at once, without
   * a promise (see {@link VERIFIED_TOKEN_TTL_MS}); a refusal is always a rejected promise.
   */
  authenticateToken(token: string): Principal | Promise<Principal> {
    // A kept token past its `exp` is verified again, and the verifier refuses it as expired.
    return this.keptCaller(token) ?? this.#lookUp(token);
  }

  /**
   * The caller of `token` when it was verified lately and has not expired, else `undefined`, and
   * then {@link authenticateToken} decides (an expired token is refused there). Expiry is judged
   * on every call: a kept token must not outlive its `exp`. Only tokens of the form issued (three
   * base64url parts) are kept, so a request's `Authorization` header of `Bearer ` and a kept
   * token is well-formed without being parsed.
   */
  keptCaller(token: string): Principal | undefined {
    const kept = this.#verified.get(token);
    return kept !== undefined && kept.expiresAt.getTime() > this.now() ? kept : undefined;
  }

  async #lookUp(token: string): Promise<Principal> {
    const generation = this.#verified.generation;
    const { userId, expiresAt } = await this.tokens.verify(token);
    const user = await this.storage.getUserById(userId);
    if (!user?.isActive) throw new UnauthorizedError();
    const principal: TokenPrincipal = { kind: 'jwt', user, expiresAt };
    // The token verifier's base64url decoding is lenient (padding, whitespace): such a spelling is
    // verified on every request rather than kept, so it never skips the header's grammar.
    if (COMPACT_TOKEN.test(token)) this.#verified.keep(token, principal, generation);
    return principal;
  }

  /**
   * Drops what is kept verified of the named user's tokens, so their next request reads storage
   * (a deactivation or a change of roles, here or on another instance). A key's change names no
   * token.
   */
  forget(change: Revocation): void {
    this.#verified.forget(change);
  }

  /** A user found by email (canonical form), or `null`. */
  async findByEmail(email: string): Promise<UserRecord | null> {
    const user = await this.storage.getUserByEmail(canonicalEmail(email));
    return user && formatUser(user);
  }

  /**
   * Sets a user's roles (library API; admins use `PATCH /admin/users/:id`). Resolves the updated
   * user, or `null` for an unknown id.
   */
  setRoles(userId: string, roles: readonly Role[]): Promise<UserRecord | null> {
    return this.update(userId, { roles });
  }

  /**
   * Activates or deactivates a user; a deactivated user's tokens and keys stop working at once,
   * and WebSocket connections opened with them close.
   */
  setActive(userId: string, isActive: boolean): Promise<UserRecord | null> {
    return this.update(userId, { isActive });
  }

  /** Changes roles and active flag together (one storage write); `null` for an unknown id. */
  async update(userId: string, changes: { roles?: readonly Role[]; isActive?: boolean }): Promise<UserRecord | null> {
    const user = await this.storage.updateUser(userId, {
      ...(changes.roles && { roles: [...new Set(changes.roles)].sort() }),
      ...(changes.isActive !== undefined && { isActive: changes.isActive }),
    });
    // Roles set the rate-limit tier, which a kept credential carries: a change counts as one.
    if (user && (!user.isActive || changes.roles)) {
      this.forget({ userId: user.id });
      await this.onRevoked({ userId: user.id });
    }
    return user && formatUser(user);
  }
}

/** Emails are compared in one form: trimmed and lowercased. */
export function canonicalEmail(email: string): string {
  return email.trim().toLowerCase();
}
