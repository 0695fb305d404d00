import type { Route } from '../../http/index.js';
import type { Services } from '../../services/index.js';
import { labelManagementRoutes } from './labels.js';
import { metadataManagementRoutes } from './metadata.js';

/** Every `/api/v2` route: metadata and label management (other v2 paths are unknown routes). */
export function v2Routes(services: Services): Route[] {
  return [...metadataManagementRoutes(services), ...labelManagementRoutes(services)];
}
