import { recoverAuthorizationAddress } from 'viem/utils';
import type { ChainClient } from '../chain/chain-client.js';
import { TransactionNotFoundError } from '../errors/index.js';
import type { Hex, TransactionReader } from '../storage/index.js';
import { labelOf, type LabelLookup } from './address-labels.js';
import type { z } from 'zod';
import type { transactionEnvelopeRecordSchema } from '../records/transaction-insight-schemas.js';

/** Names of the transaction types (EIP-2718), by type number. */
const TYPE_NAMES: Record<number, string> = { 0: 'legacy', 1: 'access list (EIP-2930)', 2: 'dynamic fee (EIP-1559)', 3: 'blob (EIP-4844)', 4: 'set code (EIP-7702)' };

/** What a transaction's type adds: EIP-7702's authorizations, EIP-4844's blobs. Fields of another type are `null`. */
export type TransactionEnvelopeRecord = z.infer<typeof transactionEnvelopeRecordSchema>;

/** One entry of an EIP-7702 authorization list. */
export type AuthorizationRecord = NonNullable<TransactionEnvelopeRecord['authorizationList']>[number];

interface RpcTypedTransaction {
  authorizationList?: { chainId: string; address: string; nonce: string; yParity: string; r: string; s: string }[];
  blobVersionedHashes?: string[];
  maxFeePerBlobGas?: string;
}

interface RpcBlobReceipt {
  blobGasUsed?: string;
  blobGasPrice?: string;
}

const decimal = (hex: string | undefined) => (hex === undefined ? null : BigInt(hex).toString());

/**
 * The fields of EIP-7702 (set code) and EIP-4844 (blob) transactions. The index keeps the type
 * only, so these are read from the node when asked, and only for those two types.
 */
export class TransactionEnvelopeService {
  constructor(
    private readonly storage: TransactionReader,
    private readonly chain: ChainClient,
    private readonly labels: LabelLookup,
  ) {}

  async envelope(hash: Hex): Promise<TransactionEnvelopeRecord> {
    const tx = await this.storage.getTransaction(hash);
    if (!tx) throw new TransactionNotFoundError();
    const base: TransactionEnvelopeRecord = {
      hash: tx.hash,
      type: tx.type,
      typeName: TYPE_NAMES[tx.type] ?? null,
      authorizationList: null,
      blobVersionedHashes: null,
      blobCount: null,
      blobGasUsed: null,
      blobGasPrice: null,
      maxFeePerBlobGas: null,
    };
    if (tx.type !== 3 && tx.type !== 4) return base;
    const [node, receipt] = await Promise.all([
      this.chain.request<RpcTypedTransaction | null>('eth_getTransactionByHash', [tx.hash]),
      tx.type === 3 ? this.chain.request<RpcBlobReceipt | null>('eth_getTransactionReceipt', [tx.hash]) : null,
    ]);
    if (!node) return base;
    if (tx.type === 4) return { ...base, authorizationList: await this.authorizations(node.authorizationList ?? []) };
    const hashes = node.blobVersionedHashes?.map((versioned) => versioned.toLowerCase()) ?? null;
    return {
      ...base,
      blobVersionedHashes: hashes,
      blobCount: hashes?.length ?? null,
      blobGasUsed: decimal(receipt?.blobGasUsed),
      blobGasPrice: decimal(receipt?.blobGasPrice),
      maxFeePerBlobGas: decimal(node.maxFeePerBlobGas),
    };
  }

  private async authorizations(list: NonNullable<RpcTypedTransaction['authorizationList']>): Promise<AuthorizationRecord[]> {
    const authorities = await Promise.all(
      list.map(async (entry) => {
        try {
          const authority = await recoverAuthorizationAddress({
            authorization: { address: entry.address as Hex, chainId: Number(BigInt(entry.chainId)), nonce: Number(BigInt(entry.nonce)), yParity: Number(BigInt(entry.yParity)), r: entry.r as Hex, s: entry.s as Hex },
          });
          return authority.toLowerCase() as Hex;
        } catch {
          return null;
        }
      }),
    );
    const labels = await this.labels.labelsOf([...list.map((entry) => entry.address.toLowerCase() as Hex), ...authorities]);
    return list.map((entry, index) => ({
      chainId: BigInt(entry.chainId).toString(),
      address: entry.address.toLowerCase(),
      addressLabel: labelOf(labels, entry.address.toLowerCase()),
      nonce: BigInt(entry.nonce).toString(),
      authority: authorities[index] ?? null,
      authorityLabel: labelOf(labels, authorities[index] ?? null),
    }));
  }
}
