import type { ClusterMember } from '../../coordination/cluster.js';
import type { Coordinator } from '../../coordination/coordinator.js';
import type { IndexedHead } from '../../events/index.js';
import type { ExplorerModule } from '../../modules/index.js';
import type { TokenMetadataReader } from '../../tokens/token-metadata.js';
import { labelManagementRoutes } from './label-management-routes.js';
import { LabelService } from './label-service.js';
import { LabelsVersion } from './labels-version.js';
import type { LabelsConfig } from './labels-config.js';
import { labelRoutes } from './label-routes.js';
import { metadataManagementRoutes } from './metadata-management-routes.js';
import { metadataRoutes } from './metadata-routes.js';
import { MetadataService } from './metadata-service.js';

/** What the labels module gives the modules after it. */
export interface Labels {
  services: { labels: LabelService; metadata: MetadataService };
  /** Moves on every label change: cached answers that show labels are kept per version. */
  labelsVersion: LabelsVersion;
}

/** What is said about addresses: public and private labels, users' watch lists, metadata profiles. */
export const labelsModule: ExplorerModule<
  {
    config: { labels: LabelsConfig; reads: { headMaxAgeMs: number }; coordinator?: Coordinator | undefined; clock: () => number };
    cluster: ClusterMember;
    head: IndexedHead;
    tokenReader: TokenMetadataReader;
  },
  Labels,
  'LabelStorage',
  'MetadataStorage' | 'TokenReader'
> = {
  name: 'labels',
  register(app, { config, cluster, head, tokenReader }) {
    const labelsVersion = new LabelsVersion(app.storage, config.reads.headMaxAgeMs);
    // A label change empties this instance's label and answer caches at once, and through the bus every other instance's.
    const labels = new LabelService(app.storage, labelsVersion, {
      ...config.labels,
      now: config.clock,
      onChange: () => {
        if (config.coordinator) cluster.relayLabels();
      },
    });
    cluster.onLabels(() => labelsVersion.changed());
    const metadata = new MetadataService(app.writer, app.chain, head, tokenReader, config.clock);
    app.route(...labelRoutes({ labels }), ...metadataRoutes({ metadata }), ...metadataManagementRoutes({ metadata }), ...labelManagementRoutes({ labels }));
    return { services: { labels, metadata }, labelsVersion };
  },
};
