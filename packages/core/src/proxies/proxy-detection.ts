import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import type { Hex } from '../storage/index.js';

/** The proxy standards recognized, by where the implementation's address is kept. */
export type ProxyKind = 'EIP-1167' | 'EIP-1967' | 'EIP-1967 beacon' | 'EIP-1822' | 'EIP-897';

/** A proxy and the contract it delegates to. */
export interface ProxyInfo {
  kind: ProxyKind;
  implementation: Hex;
}

/** `bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1)` */
const EIP1967_IMPLEMENTATION = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
/** `bytes32(uint256(keccak256('eip1967.proxy.beacon')) - 1)` */
const EIP1967_BEACON = '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50';
/** `keccak256('PROXIABLE')`, EIP-1822's slot. */
const EIP1822_PROXIABLE = '0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7';
/** `implementation()`: EIP-897's getter, and an EIP-1967 beacon's. */
const IMPLEMENTATION_SELECTOR = '0x5c60da1b';
/** EIP-1167's minimal proxy runtime code, with the implementation in the middle. */
const MINIMAL_PROXY = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/;

/**
 * Tells whether the contract with runtime `code` at `address` is a proxy, and of what, at block
 * `blockTag`: EIP-1167 from the code itself, then the EIP-1967 implementation and beacon slots,
 * EIP-1822's slot, and EIP-897's `implementation()`. An address counts only when it is not zero;
 * a getter that reverts or answers no address means no proxy of that kind.
 */
export async function detectProxy(chain: ChainClient, address: Hex, code: string, blockTag: string): Promise<ProxyInfo | null> {
  const minimal = MINIMAL_PROXY.exec(code.toLowerCase());
  if (minimal) return { kind: 'EIP-1167', implementation: `0x${minimal[1]}` };
  const slot = async (position: string) => addressIn(await chain.request<string>('eth_getStorageAt', [address, position, blockTag]));
  const [implementation, beacon, proxiable, getter] = await Promise.all([
    slot(EIP1967_IMPLEMENTATION),
    slot(EIP1967_BEACON),
    slot(EIP1822_PROXIABLE),
    callForAddress(chain, address, blockTag),
  ]);
  if (implementation) return { kind: 'EIP-1967', implementation };
  if (beacon) {
    const behind = await callForAddress(chain, beacon, blockTag);
    return behind ? { kind: 'EIP-1967 beacon', implementation: behind } : null;
  }
  if (proxiable) return { kind: 'EIP-1822', implementation: proxiable };
  return getter ? { kind: 'EIP-897', implementation: getter } : null;
}

/** `implementation()` of a contract, when it answers with a non-zero address. */
async function callForAddress(chain: ChainClient, to: Hex, blockTag: string): Promise<Hex | null> {
  try {
    return addressIn(await chain.request<string>('eth_call', [{ to, data: IMPLEMENTATION_SELECTOR }, blockTag]));
  } catch (error) {
    if (error instanceof NodeRpcError) return null;
    throw error;
  }
}

/** The address in a 32-byte word whose upper 12 bytes are zero; `null` for zero or anything else. */
function addressIn(word: string): Hex | null {
  const match = /^0x0{24}([0-9a-f]{40})$/.exec(word.toLowerCase());
  return match && !/^0+$/.test(match[1]!) ? `0x${match[1]}` : null;
}
