import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { PasswordHasher, TokenIssuer, type Principal, type Revocation } from '../../auth/index.js';
import type { ClusterMember } from '../../coordination/cluster.js';
import type { Coordinator } from '../../coordination/coordinator.js';
import type { HttpRequest } from '../../http/index.js';
import { Signal, type ExplorerModule } from '../../modules/index.js';
import { adminRoutes } from './admin-routes.js';
import { ApiKeyService } from './api-key-service.js';
import type { AuthConfig } from './auth-config.js';
import { authRoutes } from './auth-routes.js';
import { createAuthenticator } from './authenticate.js';
import { Throttles } from './throttles.js';
import { UserService } from './user-service.js';

/** The accounts feature's services, part of `Services`. */
interface AccountServices {
  /** Accounts of people: registration, login, roles (`explorer.services.users.setRoles`). */
  users: UserService;
  /** API keys of users: creation, revocation, per-key limits. */
  apiKeys: ApiKeyService;
}

/** What the accounts module gives the modules after it. */
export interface Accounts {
  services: AccountServices;
  /**
   * Who sent a request (a JWT or an API key); `null` for anonymous, throws for credentials that do
   * not hold. A key verified lately comes at once, without a promise.
   */
  authenticate: (request: HttpRequest) => Promise<Principal | null> | Principal | null;
  /** A revoked or changed key or user, here or (through the cluster's bus) on another instance. */
  revoked: Signal<Revocation>;
}

/** People's accounts: users, their API keys and access tokens, the login and registration throttles. */
export const accountsModule: ExplorerModule<
  {
    config: {
      auth: AuthConfig;
      /** The throttles' share of the `rateLimits` options. */
      rateLimits: { enabled: boolean; registrationsPerHour: number; loginFailures: number; loginWindowMinutes: number };
      coordinator?: Coordinator | undefined;
      clock: () => number;
    };
    cluster: ClusterMember;
    /** The client address of a request: registrations are throttled per address. */
    clientIp: (request: HttpRequest) => string;
  },
  Accounts,
  never,
  'AccountStorage' | 'CounterStorage'
> = {
  name: 'accounts',
  register(app, { config, cluster, clientIp }) {
    const limits = config.rateLimits;
    const throttles = new Throttles(app.writer, {
      registrationsPerHour: limits.enabled ? limits.registrationsPerHour : Number.POSITIVE_INFINITY,
      loginFailures: limits.enabled ? limits.loginFailures : Number.POSITIVE_INFINITY,
      loginWindowMinutes: limits.loginWindowMinutes,
      now: config.clock,
    });
    const revoked = new Signal<Revocation>();
    // A revoked key or a deactivated user closes the connections opened with them, and any change
    // drops the keys and tokens kept verified, here and, through the bus, on every instance. The notice is
    // sent before the change is answered, so the other instances hear it about as soon as the
    // caller does. Each service drops what it keeps of its own change itself.
    const announce = async (revocation: Revocation) => {
      revoked.emit(revocation);
      if (config.coordinator) await cluster.relayRevocation(revocation);
    };
    const apiKeys = new ApiKeyService(app.writer, { now: config.clock, maxLiveKeys: config.auth.maxApiKeysPerUser, onRevoked: announce });
    // A user's change also drops the user's keys kept verified: a key carries its owner's roles and status.
    const users = new UserService(app.writer, new PasswordHasher(), tokenIssuer(config, app.logger), throttles, config.clock, async (revocation) => {
      apiKeys.forget(revocation);
      await announce(revocation);
    });
    cluster.onRevocation((revocation) => {
      apiKeys.forget(revocation);
      users.forget(revocation);
      revoked.emit(revocation);
    });
    app.route(...authRoutes(users, apiKeys, { passwordMinLength: config.auth.passwordMinLength, clock: config.clock, clientIp }), ...adminRoutes(users, apiKeys));
    return { services: { users, apiKeys }, authenticate: createAuthenticator(users, apiKeys), revoked };
  },
};

/** The access-token issuer; without a configured secret, a random one that dies with the process. */
function tokenIssuer(config: { auth: AuthConfig; clock: () => number }, logger: Logger): TokenIssuer {
  const { jwtSecret, tokenLifetimeSeconds, issuer, audience } = config.auth;
  if (jwtSecret === undefined) {
    logger.warn('auth.jwtSecret is not set: using a random secret, so tokens end with this process and other instances refuse them');
  }
  const secret = jwtSecret === undefined ? new Uint8Array(randomBytes(32)) : new TextEncoder().encode(jwtSecret);
  return new TokenIssuer({ secret, lifetimeSeconds: tokenLifetimeSeconds, issuer, audience, now: config.clock });
}
