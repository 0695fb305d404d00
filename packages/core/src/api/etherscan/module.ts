import type { Principal } from '../../auth/principal.js';
import type { EtherscanParams } from './params.js';

/** One action of a module: the request's parameters and caller in, the answer's body out. */
export type EtherscanAction = (params: EtherscanParams, caller: Principal | null) => Promise<unknown>;

/**
 * How the response cache may keep an action's answers to GET requests (see `Route.cache`): an
 * action given one answers from its parameters and the indexed chain up to the head alone, so an
 * answer is kept for its head. `scopes`, where the parameters ask only for what they name (a
 * contract's logs), keeps it across blocks that touch none of them; `appendOnly` says when an
 * answer (the action's result) is a full page of a list read oldest first, which later blocks only
 * append to: it is then kept until a reorg. Actions without one are never kept.
 */
export interface EtherscanCaching {
  scopes?: (params: EtherscanParams) => string[] | undefined;
  appendOnly?: (params: EtherscanParams, answer: unknown) => boolean;
}

/** An Etherscan module (`account`, `contract`, …): its actions by name. */
export interface EtherscanModule {
  actions: Readonly<Record<string, EtherscanAction>>;
  /** How the response cache may keep each action's answers, by action name; an action absent here is never kept. */
  caching?: Readonly<Record<string, EtherscanCaching>>;
  /** The answer to an action it does not have; by default Etherscan's `Missing Or invalid Action name`. */
  unknownAction?: (action: string, params: EtherscanParams) => unknown;
}
