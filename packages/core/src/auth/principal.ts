import type { StoredUser } from '../storage/index.js';

/** Who is calling: a user proven by a JWT. (API keys join as a second kind.) */
export interface Principal {
  kind: 'jwt';
  user: StoredUser;
}
