import mitt, { type Emitter } from 'mitt';
import type { ExplorerEvents } from './explorer-events.js';

/** The in-process event hub: the indexer publishes, channels and subscribers listen. */
export type EventHub = Emitter<ExplorerEvents>;

/** Creates an empty hub. */
export function createEventHub(): EventHub {
  return mitt<ExplorerEvents>();
}
