import type { AddressLogsQuery, Hex, ListTip, LogReader, LogsQuery, OrdinalRange, StoredLog } from '@chainlens/core';
import { ChainRole } from './chain-state.js';

/** Logs by emitter and by topics, from the chain state. */
export class MemoryLogReader extends ChainRole implements LogReader {
  async listAddressLogs(query: AddressLogsQuery): Promise<StoredLog[]> {
    return this.state.logs.list(query);
  }

  async getAddressLogTip(address: Hex): Promise<ListTip | null> {
    return this.state.logs.tip(address);
  }

  async listAddressLogRange(address: Hex, range: OrdinalRange): Promise<StoredLog[]> {
    return this.state.logs.range(address, range);
  }

  async listLogs(query: LogsQuery): Promise<StoredLog[]> {
    return this.state.logs.listLogs(query);
  }
}
