import { afterAll, beforeAll, describe } from 'vitest';
import { accountTests } from './accounts.js';
import { adminTests } from './admin.js';
import { apiKeyTests } from './api-keys.js';
import { authTests } from './auth.js';
import { blockTests } from './blocks.js';
import { consensusTests } from './consensus.js';
import { contractTests } from './contracts.js';
import { createApiContext, type ApiContext, type ApiSuiteOptions } from './context.js';
import { documentedRecordTests } from './documented-records.js';
import { errorAndHealthTests } from './errors.js';
import { etherscanRateLimitTests, etherscanTests } from './etherscan.js';
import { etherscanLogTests } from './etherscan-logs.js';
import { etherscanProxyTests } from './etherscan-proxy.js';
import { etherscanParityTests } from './etherscan-parity.js';
import { etherscanPriceTests } from './etherscan-prices.js';
import { graphqlTests } from './graphql.js';
import { hostileInputTests } from './hostile-input.js';
import { insightTests } from './insights.js';
import { jsonRpcTests } from './json-rpc.js';
import { metadataTests } from './metadata.js';
import { outageTests } from './outage.js';
import { rateLimitTests } from './rate-limits.js';
import { recordParityTests } from './record-parity.js';
import { scopeMatrixTests } from './scopes.js';
import { searchTests } from './search.js';
import { submissionTests } from './submission.js';
import { tokenTests } from './tokens.js';
import { traceAndBatchTests } from './traces.js';
import { transactionTests } from './transactions.js';
import { verificationTests } from './verification.js';

export type { ApiSuiteOptions, ServedApi } from './context.js';

/**
 * The REST API suite: every endpoint's success and bad-input cases against a real anvil with the
 * demo contracts, through whatever adapter and storage `options` provide. Adapter and storage
 * packages run it unchanged.
 *
 * @example
 * ```ts
 * apiConformanceSuite({ name: 'fastify + memory', storage: () => memoryStorage(), serve: serveWithFastify });
 * ```
 */
export function apiConformanceSuite(options: ApiSuiteOptions): void {
  describe(`REST API (${options.name})`, () => {
    let context: ApiContext | undefined;
    const ctx = () => {
      if (!context) throw new Error('API suite context was not created');
      return context;
    };
    beforeAll(async () => {
      context = await createApiContext(options);
    });
    afterAll(async () => {
      await context?.close();
    });
    describe('envelope and health', () => errorAndHealthTests(ctx));
    describe('blocks', () => blockTests(ctx));
    describe('transactions', () => transactionTests(ctx));
    describe('transaction traces and batches', () => traceAndBatchTests(ctx));
    describe('accounts', () => accountTests(ctx));
    describe('tokens', () => tokenTests(ctx));
    describe('contracts', () => contractTests(ctx));
    describe('metadata profiles', () => metadataTests(ctx));
    describe('search', () => searchTests(ctx));
    // Before the approvals group, which revokes the demo's approval.
    describe('NFT and insight records over GraphQL and JSON-RPC', () => recordParityTests(ctx));
    describe('charts, exports, labels and approvals', () => insightTests(ctx));
    describe('records as the API description shows them', () => documentedRecordTests(ctx));
    describe('submission, pending and status', () => submissionTests(ctx));
    // Mines blocks, as submission does: the groups after these two already see a chain mined past its finalized depth.
    describe('consensus and finality', () => consensusTests(ctx));
    describe('accounts of people and tokens', () => authTests(ctx));
    describe('API keys', () => apiKeyTests(ctx));
    describe('admin', () => adminTests(ctx));
    describe('contract verification', () => verificationTests(ctx));
    describe('scope matrix', () => scopeMatrixTests(ctx));
    describe('hostile input', () => hostileInputTests(ctx));
    describe('rate limits and throttles', () => rateLimitTests(ctx));
    describe('Etherscan-compatible API', () => etherscanTests(ctx));
    describe('Etherscan-compatible API logs', () => etherscanLogTests(ctx));
    describe('Etherscan-compatible API proxy', () => etherscanProxyTests(ctx));
    describe('Etherscan-compatible API: the actions tools call, against the node', () => etherscanParityTests(ctx));
    describe('Etherscan-compatible API rate limits', () => etherscanRateLimitTests(ctx));
    describe('Etherscan-compatible API native coin price', () => etherscanPriceTests(ctx));
    describe('JSON-RPC', () => jsonRpcTests(ctx));
    describe('GraphQL', () => graphqlTests(ctx));
    describe('upstream outage', () => outageTests(ctx));
  });
}
