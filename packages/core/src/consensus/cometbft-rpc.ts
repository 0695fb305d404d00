import { UpstreamUnavailableError } from '../errors/index.js';

/** A validator as CometBFT's `/validators` lists it (64-bit integers as strings). */
export interface CometValidator {
  /** 20-byte consensus address, uppercase hex without `0x`. */
  address: string;
  pub_key: { type: string; value: string };
  voting_power: string;
  proposer_priority: string;
}

/** `/validators?height&page&per_page`. */
export interface CometValidators {
  block_height: string;
  validators: CometValidator[];
  count: string;
  total: string;
}

/** The parts of `/status` ChainLens reads. */
export interface CometStatus {
  sync_info: { latest_block_height: string; latest_block_time: string; catching_up: boolean };
}

/** The parts of a CometBFT block header ChainLens reads. */
export interface CometHeader {
  height: string;
  /** RFC 3339 with nanoseconds. */
  time: string;
  proposer_address: string;
}

/** One validator's vote in a commit; `block_id_flag` 2 (`BLOCK_ID_FLAG_COMMIT`) signs the block. */
export interface CometCommitSignature {
  block_id_flag: number | string;
  validator_address: string;
  timestamp: string;
  /** Base64; `null` for an absent vote. */
  signature: string | null;
}

/** `/commit?height`. */
export interface CometCommit {
  signed_header: { header: CometHeader; commit: { height: string; round: number; signatures: CometCommitSignature[] } };
  canonical: boolean;
}

/** `/blockchain?minHeight&maxHeight`: at most 20 headers, newest first. */
export interface CometBlockchain {
  last_height: string;
  block_metas: { header: CometHeader }[];
}

/** The CometBFT RPC answered with an error (a pruned or future height, say). Served as 503. */
export class CometBftRpcError extends UpstreamUnavailableError {
  constructor(
    readonly rpcCode: number | null,
    readonly detail: string,
  ) {
    super();
    this.name = 'CometBftRpcError';
  }
}

/** Calls of the CometBFT RPC's URI-over-HTTP interface (`GET {url}/{route}?{query}`). */
export class CometBftRpc {
  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  status(): Promise<CometStatus> {
    return this.get('status', {});
  }

  validators(height: bigint, page: number, perPage: number): Promise<CometValidators> {
    return this.get('validators', { height: height.toString(), page: String(page), per_page: String(perPage) });
  }

  commit(height: bigint): Promise<CometCommit> {
    return this.get('commit', { height: height.toString() });
  }

  blockchain(minHeight: bigint, maxHeight: bigint): Promise<CometBlockchain> {
    return this.get('blockchain', { minHeight: minHeight.toString(), maxHeight: maxHeight.toString() });
  }

  private async get<T>(route: string, query: Record<string, string>): Promise<T> {
    const url = new URL(route, this.url.endsWith('/') ? this.url : `${this.url}/`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    let body: { result?: T; error?: { code?: number; message?: string; data?: string } | string };
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
      body = (await response.json()) as typeof body;
    } catch (error) {
      throw new UpstreamUnavailableError(error);
    }
    if (body.error !== undefined) {
      const { error } = body;
      if (typeof error === 'string') throw new CometBftRpcError(null, error);
      throw new CometBftRpcError(error.code ?? null, [error.message, error.data].filter(Boolean).join(': '));
    }
    if (body.result === undefined) throw new UpstreamUnavailableError(new Error(`CometBFT ${route} answered without a result`));
    return body.result;
  }
}
