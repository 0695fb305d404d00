import type { ChartReader, ChartRollupsQuery, StoredChartRollup, TokenRollupsPage, TokenRollupsQuery } from '@chainlens/core';
import { ChainRole } from './chain-state.js';

/** Chart rollups, kept as blocks are written. */
export class MemoryChartReader extends ChainRole implements ChartReader {
  async listChartRollups(query: ChartRollupsQuery): Promise<StoredChartRollup[]> {
    return this.state.charts.list(query);
  }

  async listTokenRollups(query: TokenRollupsQuery): Promise<TokenRollupsPage> {
    return this.state.charts.listToken(query);
  }
}
