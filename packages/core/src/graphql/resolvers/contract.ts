import { TokenNotFoundError } from '../../errors/index.js';
import type { ContractRecord } from '../../services/contract-service.js';
import type { Hex } from '../../storage/index.js';
import type { GraphqlContext } from '../context.js';
import { orNull } from '../../services/or-null.js';

/** A contract is REST's Contract record; its creation transaction and token are one step away. */
export const contractResolvers = {
  Contract: {
    creationTransaction: (contract: ContractRecord, _: unknown, context: GraphqlContext) =>
      contract.creationTx === null ? null : context.loaders.transactions.load(contract.creationTx as Hex),
    token: (contract: ContractRecord, _: unknown, context: GraphqlContext) =>
      contract.isToken ? orNull(context.services.tokens.token(contract.address as Hex), TokenNotFoundError) : null,
  },
};
