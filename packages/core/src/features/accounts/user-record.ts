import type { StoredUser } from '../../storage/index.js';
import type { z } from 'zod';
import type { userRecordSchema } from '../../records/account-record-schemas.js';

/** A user as the API answers it (spec: User): never the password or its hash. */
export type UserRecord = z.infer<typeof userRecordSchema>;

export function formatUser(user: StoredUser): UserRecord {
  return { id: user.id, email: user.email, name: user.name, roles: [...user.roles], isActive: user.isActive, createdAt: user.createdAt.toISOString() };
}
