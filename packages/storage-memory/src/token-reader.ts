import type { AddressTokenBalancesQuery, AddressTokenTransfersQuery, ApprovalsQuery, Hex, ListTip, OrdinalRange, StoredApproval, StoredToken, StoredTokenBalance, StoredTokenTransfer, TokenHoldersPage, TokenHoldersQuery, TokenReader, TokenSearchQuery, TokenTransfersQuery, TokensQuery } from '@chainlens/core';
import { ChainRole } from './chain-state.js';

/** Tokens, holders, transfers and approvals, from the chain state. */
export class MemoryTokenReader extends ChainRole implements TokenReader {
  async getToken(address: Hex): Promise<StoredToken | null> {
    return this.state.tokens.getToken(address);
  }

  async listTokens(query: TokensQuery): Promise<StoredToken[]> {
    return this.state.tokens.listTokens(query);
  }

  async searchTokens(query: TokenSearchQuery): Promise<StoredToken[]> {
    return this.state.tokens.searchTokens(query);
  }

  async countTokenHoldersAt(token: Hex, blockNumber: bigint): Promise<number> {
    return this.state.tokens.countHoldersAt(token, blockNumber);
  }

  async listTokenHolders(query: TokenHoldersQuery): Promise<TokenHoldersPage> {
    return this.state.tokens.listHolders(query);
  }

  async listAddressTokenBalances(query: AddressTokenBalancesQuery): Promise<StoredTokenBalance[]> {
    return this.state.tokens.listBalances(query);
  }

  async listTokenTransfers(query: TokenTransfersQuery): Promise<StoredTokenTransfer[]> {
    return this.state.tokens.listTransfers(query);
  }

  async getTokenTransferTip(token: Hex): Promise<ListTip | null> {
    return this.state.tokens.transferTip(token);
  }

  async listTokenTransferRange(token: Hex, range: OrdinalRange): Promise<StoredTokenTransfer[]> {
    return this.state.tokens.transferRange(token, range);
  }

  async listAddressTokenTransfers(query: AddressTokenTransfersQuery): Promise<StoredTokenTransfer[]> {
    return this.state.tokens.listAddressTransfers(query);
  }

  async countAddressTokenTransfers(address: Hex): Promise<number> {
    return this.state.tokens.countAddressTransfers(address);
  }

  async listApprovals(query: ApprovalsQuery): Promise<StoredApproval[]> {
    return this.state.approvals.standing(query);
  }
}
