import type { ResolvedConfig } from '../config.js';
import { createConsensusSource } from '../consensus/create-consensus-source.js';
import type { IndexedHead } from '../events/index.js';
import { consensusChannels } from '../channels/built-in-channels.js';
import { consensusFields } from '../graphql/fields/consensus.js';
import type { ExplorerModule } from '../modules/index.js';
import { ConsensusPublisher } from '../services/consensus-publisher.js';
import { ConsensusService, StatusService, type ChainRecordCache } from '../services/index.js';
import type { Services } from '../explorer-services.js';

/**
 * Validators, finality and state roots from the configured consensus source, the chain's status
 * built on them, and the finality, validators and consensus channels' events.
 */
export const consensusModule: ExplorerModule<
  {
    config: Pick<ResolvedConfig, 'consensus' | 'requiredConfirmations' | 'http'>;
    head: IndexedHead;
    records: ChainRecordCache;
    services: Pick<Services, 'blocks' | 'labels' | 'pending'>;
  },
  { services: Pick<Services, 'consensus' | 'status'> },
  'BlockReader' | 'TransactionReader'
> = {
  name: 'consensus',
  graphql: [consensusFields],
  register(app, { config, head, records, services: { blocks, labels, pending } }) {
    const { storage, chain } = app;
    const source = createConsensusSource({ ...config, upstreamTimeoutMs: config.http.upstreamTimeoutMs }, storage, chain);
    const consensus = new ConsensusService(storage, head, blocks, labels, source, config.consensus);
    const publisher = new ConsensusPublisher(consensus, app.hub, app.logger.child({ module: 'consensus' }));
    app.onClose(() => publisher.stop());
    app.channel(...consensusChannels);
    return { services: { consensus, status: new StatusService(storage, head, chain, pending, consensus, records) } };
  },
};
