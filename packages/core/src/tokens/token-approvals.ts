import { toEventSelector } from 'viem';
import { addressOfWord } from '../abi/address-word.js';
import type { StoredApproval } from '../storage/approval-records.js';
import type { StoredLog } from '../storage/records.js';

const APPROVAL = toEventSelector('Approval(address,address,uint256)');
const APPROVAL_FOR_ALL = toEventSelector('ApprovalForAll(address,address,bool)');

/**
 * The approvals carried by a block's logs, in `logIndex` order: ERC-20 `Approval` (three topics,
 * one data word: the allowance) and ERC-721/ERC-1155 `ApprovalForAll` (three topics, one data
 * word holding the boolean). ERC-721's `Approval` of one token id (four topics) is left out: a
 * transfer of the token ends it without an event, so no stored event tells whether it stands. A
 * log of another shape is some other contract's event and yields nothing.
 */
export function approvalsOf(logs: readonly StoredLog[], timestamp: bigint): StoredApproval[] {
  const approvals: StoredApproval[] = [];
  for (const log of logs) {
    const selector = log.topics[0];
    if ((selector !== APPROVAL && selector !== APPROVAL_FOR_ALL) || log.topics.length !== 3 || log.data.length !== 66) continue;
    const owner = addressOfWord(log.topics[1]);
    const spender = addressOfWord(log.topics[2]);
    if (owner === null || spender === null) continue;
    const word = BigInt(log.data);
    // A bool is one word holding 0 or 1; anything else is not ApprovalForAll's encoding.
    if (selector === APPROVAL_FOR_ALL && word > 1n) continue;
    approvals.push({
      blockNumber: log.blockNumber,
      logIndex: log.logIndex,
      transactionHash: log.transactionHash,
      transactionIndex: log.transactionIndex,
      timestamp,
      token: log.address,
      owner,
      spender,
      kind: selector === APPROVAL ? 'allowance' : 'operator',
      value: word,
    });
  }
  return approvals;
}
