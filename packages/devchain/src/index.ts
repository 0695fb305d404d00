/**
 * `@chainlens/devchain`: a real local chain for tests, benchmarks and the demo — spawn
 * anvil, compile and deploy demo contracts, generate activity and fill blocks in bulk.
 */
export { DEV_ACCOUNT_COUNT, DEV_MNEMONIC, devAccount, devAccounts } from './accounts.js';
export { startDemoActivity, type DemoActivity, type DemoActivityOptions } from './activity.js';
export { AnvilStartError, startAnvil, type AnvilInstance, type AnvilOptions } from './anvil.js';
export { resolveAnvilBinary } from './anvil-binary.js';
export { compileContracts, type CompiledContract, type CompiledContracts } from './compile.js';
export { DEMO_SOURCES } from './contracts/index.js';
export { deployDemo, type DemoContracts, type DemoDeployment, type DemoTransactions } from './demo.js';
export { fillBlocks, type FillBlocksOptions } from './fill-blocks.js';
export { findFreePort } from './free-port.js';
export { RpcError, rpcBatch, rpcCall, type RpcRequest } from './rpc.js';
export { createTestChain, type TestChain } from './test-chain.js';
