import { v1 } from '../api.js';
import { useNow } from '../clock.js';
import { PageTitle } from '../components/layout.js';
import { PagedList } from '../components/pager.js';
import { BlocksTable, TransactionsTable } from '../components/tables.js';
import { usePaged } from '../load.js';
import type { Block, Transaction } from '../records.js';

const PAGE_SIZE = 25;

/** Every indexed block, newest first, a page at a time. */
export function BlocksPage() {
  const now = useNow();
  const paged = usePaged((page, offset) => v1<Block[]>('block/list', { page, offset }), PAGE_SIZE);
  return (
    <>
      <PageTitle>Blocks</PageTitle>
      <PagedList paged={paged} what="blocks" empty="No block is indexed yet.">
        {(blocks) => <BlocksTable blocks={blocks} now={now} caption={`Blocks, newest first, page ${paged.page}`} />}
      </PagedList>
    </>
  );
}

/** Every indexed transaction, newest first, a page at a time. */
export function TransactionsPage() {
  const now = useNow();
  const paged = usePaged((page, offset) => v1<Transaction[]>('transaction/list', { page, offset }), PAGE_SIZE);
  return (
    <>
      <PageTitle>Transactions</PageTitle>
      <PagedList paged={paged} what="transactions" empty="No transaction is indexed yet.">
        {(transactions) => <TransactionsTable transactions={transactions} now={now} caption={`Transactions, newest first, page ${paged.page}`} />}
      </PagedList>
    </>
  );
}
