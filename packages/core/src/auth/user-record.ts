import type { StoredUser } from '../storage/index.js';

/** A user as the API answers it (spec: User): never the password or its hash. */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  roles: string[];
  isActive: boolean;
  /** ISO 8601. */
  createdAt: string;
}

export function formatUser(user: StoredUser): UserRecord {
  return { id: user.id, email: user.email, name: user.name, roles: [...user.roles], isActive: user.isActive, createdAt: user.createdAt.toISOString() };
}
