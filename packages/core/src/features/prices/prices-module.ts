import type { HubChannel } from '../../channels/index.js';
import type { ExplorerEvents, IndexedHead } from '../../events/index.js';
import type { ExplorerModule } from '../../modules/index.js';
import type { PriceSource } from '../../prices/price-source.js';
import { tokenDecimals } from '../../tokens/token-decimals.js';
import type { TokenMetadataReader } from '../../tokens/token-metadata.js';
import { PricePublisher } from './price-publisher.js';
import { PriceService } from './price-service.js';
import { UniswapV2PriceSource, type UniswapV2PriceOptions } from './uniswap-v2-price-source.js';

/** The prices module's channel: a token's price as it changes, per token address. */
export const priceChannels: readonly HubChannel[] = [
  {
    name: 'token_price',
    addressed: true,
    replayable: false,
    event: 'tokenPrice',
    message: (price: ExplorerEvents['tokenPrice']) => ({
      address: price.address,
      blockNumber: price.blockNumber,
      data: { address: price.address, priceUSD: price.priceUSD, change24h: price.change24h, timestamp: price.timestamp.toString() },
      blockHash: price.blockHash,
    }),
  },
];

/** Token prices, volume and liquidity from on-chain pairs or a source of the user's, and the `prices` channel's events. */
export const pricesModule: ExplorerModule<
  { config: { prices?: UniswapV2PriceOptions | undefined; priceSource?: PriceSource | undefined }; head: IndexedHead; tokenReader: TokenMetadataReader },
  { services: { prices: PriceService } },
  'BlockReader' | 'PairReader' | 'TokenReader'
> = {
  name: 'prices',
  register(app, { config, head, tokenReader }) {
    const decimalsOf = tokenDecimals(app.storage, tokenReader, head);
    const source = config.priceSource ?? (config.prices ? new UniswapV2PriceSource(app.storage, decimalsOf, config.prices) : null);
    const prices = new PriceService(source, app.storage, head, decimalsOf);
    const publisher = new PricePublisher(prices, app.hub, app.logger.child({ module: 'prices' }));
    app.onClose(() => publisher.stop());
    app.channel(...priceChannels);
    return { services: { prices } };
  },
};
