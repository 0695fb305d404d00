import { ExplorerError } from '../errors/index.js';

/** A browser connection from an origin outside `sockets.allowedOrigins` (403). */
export class OriginNotAllowedError extends ExplorerError {
  constructor() {
    super('FORBIDDEN', { message: 'Forbidden: origin not allowed' });
  }
}
