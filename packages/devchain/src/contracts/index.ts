import { CALLER_SOURCE } from './caller.js';
import { DEMO_DEX_SOURCE } from './demo-dex.js';
import { DEMO_MULTI_TOKEN_SOURCE } from './demo-multi-token.js';
import { DEMO_NFT_SOURCE } from './demo-nft.js';
import { DEMO_TOKEN_SOURCE } from './demo-token.js';
import { EVENT_EMITTER_SOURCE } from './event-emitter.js';
import { REVERTER_SOURCE } from './reverter.js';

/**
 * The demo contracts' Solidity sources by file name, ready for {@link compileContracts}. Kept as
 * TypeScript strings (not `.sol` files) so bundlers ship them without asset handling.
 */
export const DEMO_SOURCES: Readonly<Record<string, string>> = {
  'DemoToken.sol': DEMO_TOKEN_SOURCE,
  'DemoNFT.sol': DEMO_NFT_SOURCE,
  'DemoMultiToken.sol': DEMO_MULTI_TOKEN_SOURCE,
  'EventEmitter.sol': EVENT_EMITTER_SOURCE,
  'Reverter.sol': REVERTER_SOURCE,
  'Caller.sol': CALLER_SOURCE,
  'DemoDex.sol': DEMO_DEX_SOURCE,
};
