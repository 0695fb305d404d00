import type { ResolvedConfig } from '../config.js';
import type { ExplorerModule } from '../modules/index.js';
import type { Services } from '../services/index.js';
import { VerificationService } from '../verification/verification-service.js';

/** Source verification: compiling submitted Solidity and matching it against the chain's code, as jobs. */
export const verificationModule: ExplorerModule<{ config: Pick<ResolvedConfig, 'verification' | 'clock'> }, { services: Pick<Services, 'verification'> }, never, 'VerificationStorage' | 'TransactionReader'> = {
  name: 'verification',
  register(app, { config }) {
    const verification = new VerificationService({ storage: app.writer, chain: app.chain, logger: app.logger.child({ module: 'verification' }), clock: config.clock, ...config.verification });
    app.onClose(() => verification.close());
    return { services: { verification } };
  },
};
