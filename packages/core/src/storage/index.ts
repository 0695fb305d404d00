export type * from './account-records.js';
export type * from './contract-records.js';
export type * from './dex-records.js';
export type * from './internal-transaction-records.js';
export type * from './metadata-records.js';
export type * from './records.js';
export type * from './token-records.js';
export type * from './verification-records.js';
export type { Storage } from './storage.js';
