import { useState } from 'preact/hooks';
import { v1 } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { Details } from '../components/details.js';
import { PageTitle } from '../components/layout.js';
import { AddressLink, BlockLink } from '../components/links.js';
import { Pager, pageOf } from '../components/pager.js';
import { Loaded } from '../components/states.js';
import { useLoad } from '../load.js';
import type { ConsensusInfo, Finality, ValidatorSet } from '../records.js';

const PAGE_SIZE = 25;

/** Who produces blocks, how the chain agrees on them, and how far it is final. */
export function ValidatorsPage() {
  const consensus = useLoad(() => Promise.all([v1<ConsensusInfo>('blockchain/consensus/info'), v1<Finality>('blockchain/finality/latest')]), []);
  const set = useLoad(() => v1<ValidatorSet>('blockchain/validators'), []);
  const [page, setPage] = useState(1);
  return (
    <>
      <PageTitle>Validators and consensus</PageTitle>
      <Loaded loading={consensus} what="consensus information">
        {([info, finality]) => (
          <Details
            label="Consensus"
            rows={[
              ['Algorithm', info.consensusAlgorithm ?? 'not visible to an EVM node'],
              ['Block time', `${info.blockTime} s`],
              ['Current block', <BlockLink number={info.currentBlock} />],
              ['Current validator', <AddressLink address={info.currentValidator} full />],
              ['Epoch', info.epoch === null ? '—' : String(info.epoch)],
              ['Newest block final', finality.isFinalized ? 'yes' : `not yet (${finality.confirmations} of ${finality.requiredConfirmations ?? '?'} confirmations)`],
            ]}
          />
        )}
      </Loaded>
      <h2>Validators</h2>
      <Loaded loading={set} what="validators">
        {(validators) => {
          const rows = pageOf(validators.validators, page, PAGE_SIZE);
          return (
            <div class="paged">
              <p>
                {validators.activeValidators} active of {validators.totalValidators}, over the newest indexed blocks.
              </p>
              <DataTable
                caption={`Block producers, page ${page}`}
                rows={rows}
                rowKey={(validator) => validator.address}
                columns={[
                  ['Address', (validator) => <AddressLink address={validator.address} full />],
                  ['Active', (validator) => (validator.isActive ? 'yes' : 'no')],
                  ['Blocks', (validator) => validator.totalBlocks],
                  ['Missed', (validator) => validator.missedBlocks ?? '—'],
                  ['Uptime', (validator) => (validator.uptime === null ? '—' : `${validator.uptime} %`)],
                  ['Voting power', (validator) => validator.votingPower ?? '—'],
                ]}
              />
              <Pager page={page} setPage={setPage} hasMore={page * PAGE_SIZE < validators.validators.length} what="validators" />
            </div>
          );
        }}
      </Loaded>
    </>
  );
}
