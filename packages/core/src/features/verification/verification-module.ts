import type { ClusterMember } from '../../coordination/cluster.js';
import type { Coordinator } from '../../coordination/coordinator.js';
import type { ExplorerModule } from '../../modules/index.js';
import { VerificationService } from './verification-service.js';
import type { VerificationConfig } from './verification-config.js';
import { verificationRoutes } from './verification-routes.js';

/** Source verification: compiling submitted Solidity and matching it against the chain's code, as jobs. */
export const verificationModule: ExplorerModule<
  { config: { verification: VerificationConfig; clock: () => number; coordinator?: Coordinator | undefined }; cluster: ClusterMember },
  { services: { verification: VerificationService } },
  never,
  'VerificationStorage' | 'TransactionReader'
> = {
  name: 'verification',
  register(app, { config, cluster }) {
    const verification = new VerificationService({
      storage: app.writer,
      chain: app.chain,
      logger: app.logger.child({ module: 'verification' }),
      clock: config.clock,
      ...config.verification,
      // Kept answers that decode the contract's logs start afresh here, and through the bus on every other instance.
      onVerified: (address) => {
        app.hub.emit('verified', { address });
        if (config.coordinator) cluster.relayVerified(address);
      },
    });
    app.route(...verificationRoutes(verification));
    app.onClose(() => verification.close());
    return { services: { verification } };
  },
};
