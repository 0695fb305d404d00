/** A data message as it goes out, serialized once for every subscriber of its stream. */
export interface Outgoing {
  /** `{"channel":…,"address":…,"blockNumber":…,"data":…}`; each subscriber's sequence is spliced in front. */
  body: string;
  /** The block it belongs to, for block-derived channels (replay, reorgs). */
  blockHash?: string;
  blockNumber: bigint | null;
}

/**
 * Serializes a data message. `dataJson` is the record already stringified, so a record shared
 * by several streams (a transaction on `transactions` and two `address_transactions`) is
 * stringified once.
 */
export function outgoing(channel: string, address: string | undefined, blockNumber: bigint | null, dataJson: string, blockHash?: string): Outgoing {
  const head = `{"channel":${JSON.stringify(channel)}${address === undefined ? '' : `,"address":${JSON.stringify(address)}`}`;
  return { body: `${head},"blockNumber":${blockNumber === null ? 'null' : `"${blockNumber}"`},"data":${dataJson}}`, blockHash, blockNumber };
}

/** The frame one subscriber receives: its sequence (and `removed`) spliced into the shared body. */
export function frame(sequence: number, body: string, removed = false): string {
  return `{"sequence":${sequence},${removed ? '"removed":true,' : ''}${body.slice(1)}`;
}
