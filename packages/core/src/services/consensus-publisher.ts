import type { Logger } from 'pino';
import type { EventHub, ExplorerEvents } from '../events/index.js';
import type { ConsensusService } from './consensus-service.js';

/** Most `finality` events one round sends: a catching-up indexer finalizes blocks by the thousand. */
const MAX_FINALITY_EVENTS_PER_ROUND = 64;

/**
 * Publishes `finality` (each block that became final), `validators` (each validator whose
 * record changed) and `consensus` (the consensus state, when it changed) as written blocks
 * arrive. Blocks only mark work to do; one worker then reads the newest state, so a catching-up
 * indexer costs one round per batch rather than per block. Nothing is read while nobody listens
 * to an event, and a listener that arrives later starts from the state at that time.
 */
export class ConsensusPublisher {
  #head: bigint | null = null;
  #due = false;
  #working = false;
  #stopped = false;
  #lastFinal: bigint | null = null;
  #validators = new Map<string, string>();
  #consensus: string | null = null;

  constructor(
    private readonly consensus: ConsensusService,
    private readonly hub: EventHub,
    private readonly logger: Logger,
  ) {
    hub.on('block', ({ block }) => {
      if (this.#stopped) return;
      this.#head = block.number;
      if (!this.#listened('finality') && !this.#listened('validators') && !this.#listened('consensus')) return;
      this.#due = true;
      if (!this.#working) void this.#drain();
    });
    hub.on('reorg', ({ commonAncestor }) => {
      if (this.#lastFinal !== null && this.#lastFinal > commonAncestor.blockNumber) this.#lastFinal = commonAncestor.blockNumber;
    });
  }

  /** Stops publishing; a round being computed is dropped. */
  stop(): void {
    this.#stopped = true;
  }

  #listened(event: keyof ExplorerEvents): boolean {
    return (this.hub.all.get(event)?.length ?? 0) > 0;
  }

  async #drain(): Promise<void> {
    this.#working = true;
    try {
      while (this.#due && !this.#stopped) {
        this.#due = false;
        await this.#publish();
      }
    } finally {
      this.#working = false;
    }
  }

  async #publish(): Promise<void> {
    try {
      await this.#publishFinality();
      await this.#publishValidators();
      await this.#publishConsensus();
    } catch (error) {
      this.logger.warn({ err: error }, 'consensus state could not be read; its finality, validators and consensus events are skipped this block');
    }
  }

  async #publishFinality(): Promise<void> {
    if (!this.#listened('finality')) {
      this.#lastFinal = null;
      return;
    }
    const final = await this.consensus.finalizedBlock(this.#head);
    if (final === null || (this.#lastFinal !== null && final <= this.#lastFinal)) return;
    let from = this.#lastFinal === null ? final : this.#lastFinal + 1n;
    if (final - from >= BigInt(MAX_FINALITY_EVENTS_PER_ROUND)) from = final - BigInt(MAX_FINALITY_EVENTS_PER_ROUND) + 1n;
    for (let n = from; n <= final && !this.#stopped; n++) {
      this.hub.emit('finality', await this.consensus.finality(n));
      this.#lastFinal = n;
    }
  }

  async #publishValidators(): Promise<void> {
    if (!this.#listened('validators')) {
      this.#validators.clear();
      return;
    }
    const { validators } = await this.consensus.validatorSet();
    const seen = new Map<string, string>();
    for (const validator of validators) {
      const shape = JSON.stringify(validator);
      seen.set(validator.address, shape);
      if (this.#validators.get(validator.address) !== shape && !this.#stopped) this.hub.emit('validators', validator);
    }
    this.#validators = seen;
  }

  async #publishConsensus(): Promise<void> {
    if (!this.#listened('consensus')) {
      this.#consensus = null;
      return;
    }
    const info = await this.consensus.consensusInfo();
    const shape = JSON.stringify(info);
    if (shape === this.#consensus || this.#stopped) return;
    this.#consensus = shape;
    this.hub.emit('consensus', info);
  }
}
