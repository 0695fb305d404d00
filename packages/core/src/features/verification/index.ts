export { VERIFICATION_MESSAGES, VerificationService, type VerificationOutcome, type VerificationServiceOptions } from './verification-service.js';
export { verificationFields, type CodeFormat, type VerificationInput } from './verification-input.js';
export { ETHERSCAN_LICENSES } from './license.js';
