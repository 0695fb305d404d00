export * from './standard-events.js';
export * from './decode-log.js';
export * from './verified-events.js';
export { COMMON_FUNCTIONS } from './common-functions.js';
export { decodeCallInput, decodeCallOutput, decodeCustomError, type CallAbi, type CallAbiSource, type DecodedCall, type DecodedError, type DecodedParameter, type FoundCall } from './decode-call.js';
