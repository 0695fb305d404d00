import type { Principal } from '../../auth/principal.js';
import type { EtherscanParams } from './params.js';

/** One action of a module: the request's parameters and caller in, the answer's body out. */
export type EtherscanAction = (params: EtherscanParams, caller: Principal | null) => Promise<unknown>;

/** An Etherscan module (`account`, `contract`, …): its actions by name. */
export interface EtherscanModule {
  actions: Readonly<Record<string, EtherscanAction>>;
  /** The answer to an action it does not have; by default Etherscan's `Missing Or invalid Action name`. */
  unknownAction?: (action: string, params: EtherscanParams) => unknown;
}
