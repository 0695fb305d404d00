import { v1 } from '../api.js';
import { useNow } from '../clock.js';
import { Details } from '../components/details.js';
import { PageTitle } from '../components/layout.js';
import { AddressLink } from '../components/links.js';
import { PagedList } from '../components/pager.js';
import { Loaded } from '../components/states.js';
import { TransactionsTable } from '../components/tables.js';
import { age, formatGwei, formatTime, groupThousands } from '../format.js';
import { useLoad, usePaged } from '../load.js';
import type { Block, Transaction } from '../records.js';
import { href } from '../router.js';

/** One block: its header fields and its transactions. */
export function BlockPage({ number }: { number: string }) {
  const now = useNow();
  const block = useLoad(() => v1<Block>('block/getblock', { blockno: number }), [number]);
  return (
    <>
      <PageTitle>Block #{number}</PageTitle>
      <Loaded loading={block} what={`block #${number}`}>
        {(found) => (
          <>
            <nav class="step" aria-label="Neighbouring blocks">
              {found.blockNumber !== '0' && <a href={href.block(BigInt(found.blockNumber) - 1n)}>Previous block</a>}
              <a href={href.block(BigInt(found.blockNumber) + 1n)}>Next block</a>
            </nav>
            <Details
              label="Block details"
              rows={[
                ['Block number', found.blockNumber],
                ['Time', `${formatTime(found.timestamp)} (${age(found.timestamp, now)})`],
                ['Transactions', String(found.transactionCount)],
                ['Hash', <span class="mono">{found.hash}</span>],
                ['Parent', found.blockNumber === '0' ? <span class="mono">{found.parentHash}</span> : <a class="mono" href={href.block(BigInt(found.blockNumber) - 1n)}>{found.parentHash}</a>],
                ['Miner', <AddressLink address={found.miner} label={found.minerLabel} full />],
                ['Gas used', `${groupThousands(found.gasUsed)} of ${groupThousands(found.gasLimit)}`],
                ['Base fee', found.baseFeePerGas === null ? '—' : formatGwei(found.baseFeePerGas)],
                ['Size', `${groupThousands(found.size)} bytes`],
                ['State root', <span class="mono">{found.stateRoot}</span>],
              ]}
            />
            <h2>Transactions</h2>
            <BlockTransactions number={found.blockNumber} now={now} />
          </>
        )}
      </Loaded>
    </>
  );
}

function BlockTransactions({ number, now }: { number: string; now: number }) {
  const paged = usePaged((page, offset) => v1<Transaction[]>('transaction/list', { blockno: number, page, offset }), 25);
  return (
    <PagedList paged={paged} what="the block's transactions" empty="This block holds no transactions.">
      {(transactions) => <TransactionsTable transactions={transactions} now={now} showBlock={false} caption={`Transactions of block ${number} in block order`} />}
    </PagedList>
  );
}

