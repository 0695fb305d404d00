import { uiRoutes } from '../api/ui/index.js';
import type { ResolvedConfig } from '../config.js';
import type { ExplorerModule } from '../modules/index.js';

/** The explorer page (`@chainlens/ui`'s built files) at `ui.path`, when `ui` is set. */
export const uiModule: ExplorerModule<{ config: Pick<ResolvedConfig, 'ui'> }, void> = {
  name: 'ui',
  register(app, { config }) {
    if (config.ui) app.page(...uiRoutes(config.ui.path));
  },
};
