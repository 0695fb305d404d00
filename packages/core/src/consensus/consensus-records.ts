import type { z } from 'zod';
import type { consensusInfoRecordSchema, finalityStatusRecordSchema, validatorRecordSchema, validatorSetRecordSchema } from '../records/record-schemas.js';
/*
 * The consensus records the API answers and the hub carries (`validators`, `consensus`,
 * `finality` events): beside the sources, below the event hub, so both services and events use them.
 */

/**
 * Validator record (spec: Validator). `null` wherever the configured consensus source cannot
 * tell: the generic `evm` source knows only who produced which indexed block.
 */
export type ValidatorRecord = z.infer<typeof validatorRecordSchema>;

/** Validator set record (spec: Validator set). */
export type ValidatorSetRecord = z.infer<typeof validatorSetRecordSchema>;

/** Consensus info record (spec: Consensus info); `null` where the source cannot tell. */
export type ConsensusInfoRecord = z.infer<typeof consensusInfoRecordSchema>;

/** Finality status record (spec: Finality status). */
export type FinalityStatusRecord = z.infer<typeof finalityStatusRecordSchema>;
