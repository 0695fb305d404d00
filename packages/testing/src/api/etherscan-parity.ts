import { erc20Abi, erc721Abi, type Address, type Hash } from 'viem';
import { expect, it } from 'vitest';
import { get, indexedToHead, type ApiContext } from './context.js';
import { etherscan } from './etherscan.js';

const notOk = (result: string) => ({ status: '0', message: 'NOTOK', result });
const lower = (address: string) => address.toLowerCase() as Address;
const CHAIN_ERROR = 'Missing or unsupported chainid parameter (required for v2 api), please see chainlist for the list of supported chainids';

/** Calls `{base_url}/v2/api` by query string or form body. */
async function etherscanV2(context: ApiContext, params: Record<string, string>, method: 'GET' | 'POST' = 'GET'): Promise<{ status: number; body: any }> {
  const search = new URLSearchParams(params).toString();
  const response =
    method === 'GET'
      ? await fetch(`${context.url}/v2/api?${search}`)
      : await fetch(`${context.url}/v2/api`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: search });
  return { status: response.status, body: await response.json() };
}

/** The actions Etherscan clients call beyond the basics, each compared with the node's own answers. */
export function etherscanParityTests(ctx: () => ApiContext): void {
  const node = () => ctx().chain.publicClient;
  const ask = async (params: Record<string, string>) => (await etherscan(ctx(), params)).body;

  it('/v2/api answers as /api when chainid names this chain; a missing or other chainid is Etherscan’s V2 error, and /api/v2 stays REST', async () => {
    const address = ctx().demo.accounts[1]!;
    const params = { module: 'account', action: 'balance', address };
    const plain = await ask(params);
    expect(plain.status).toBe('1');
    for (const method of ['GET', 'POST'] as const) {
      expect(await etherscanV2(ctx(), { chainid: '31337', ...params }, method), method).toEqual({ status: 200, body: plain });
      expect(await etherscanV2(ctx(), params, method), method).toEqual({ status: 200, body: notOk(CHAIN_ERROR) });
      expect(await etherscanV2(ctx(), { chainid: '1', ...params }, method), method).toEqual({ status: 200, body: notOk(CHAIN_ERROR) });
    }
    expect((await fetch(`${ctx().url}/v2/api/?chainid=31337&${new URLSearchParams(params)}`).then((r) => r.json())) as unknown).toEqual(plain);
    // chainid stays optional on /api, and a wrong one is refused there in the same words.
    expect(await ask({ ...params, chainid: '5' })).toEqual(notOk(CHAIN_ERROR));
    const rest = await get(ctx(), '/api/v2/api');
    expect({ status: rest.status, message: rest.body.message }).toEqual({ status: 404, message: 'Error! Endpoint not found' });
  });

  it('account/tokenbalance and stats/tokensupply are what the contract answers at the indexed head', async () => {
    const head = await indexedToHead(ctx());
    const token = ctx().demo.contracts.token;
    for (const holder of ctx().demo.accounts.slice(0, 4)) {
      const balance = await node().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder], blockNumber: head });
      expect(await ask({ module: 'account', action: 'tokenbalance', contractaddress: token, address: holder, tag: 'latest' }), holder).toEqual({ status: '1', message: 'OK', result: balance.toString() });
    }
    const holder = ctx().demo.accounts[1]!;
    const early = await node().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder], blockNumber: ctx().demo.fromBlock + 1n });
    expect((await ask({ module: 'account', action: 'tokenbalance', contractaddress: token, address: holder, tag: String(ctx().demo.fromBlock + 1n) })).result).toBe(early.toString());
    const supply = await node().readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply', blockNumber: head });
    expect(await ask({ module: 'stats', action: 'tokensupply', contractaddress: token })).toEqual({ status: '1', message: 'OK', result: supply.toString() });
    expect(await ask({ module: 'stats', action: 'tokensupply', contractaddress: ctx().demo.contracts.emitter })).toEqual(notOk('Error! The contract has no totalSupply()'));
    expect(await ask({ module: 'account', action: 'tokenbalance', contractaddress: ctx().demo.contracts.emitter, address: holder })).toEqual(
      notOk('Error! The contract does not answer balanceOf(address)'),
    );
    expect(await ask({ module: 'account', action: 'tokenbalance', contractaddress: '0x12', address: holder })).toEqual(notOk('Error! Invalid contract address format'));
    expect(await ask({ module: 'stats', action: 'tokensupply' })).toEqual(notOk('Error! Invalid contract address format'));
    expect(await ask({ module: 'account', action: 'tokenbalance', contractaddress: token, address: holder, tag: String(head + 1000n) })).toEqual(notOk('Error! Block not found'));
  });

  it('account/addresstokenbalance, addresstokennftbalance and addresstokennftinventory hold what the node’s balanceOf and ownerOf say', async () => {
    const head = await indexedToHead(ctx());
    const { token, quoteToken, nft } = ctx().demo.contracts;
    const holder = ctx().demo.accounts[0]!;
    const fungible = await ask({ module: 'account', action: 'addresstokenbalance', address: holder });
    expect(fungible.status).toBe('1');
    expect(Object.keys(fungible.result[0])).toEqual(['TokenAddress', 'TokenName', 'TokenSymbol', 'TokenQuantity', 'TokenDivisor']);
    for (const contract of [token, quoteToken]) {
      const balance = await node().readContract({ address: contract, abi: erc20Abi, functionName: 'balanceOf', args: [holder], blockNumber: head });
      expect(fungible.result.find((row: { TokenAddress: string }) => row.TokenAddress === lower(contract))?.TokenQuantity, contract).toBe(balance.toString());
    }
    expect(fungible.result.find((row: { TokenAddress: string }) => row.TokenAddress === lower(token))).toMatchObject({ TokenName: 'Demo Token', TokenSymbol: 'DEMO', TokenDivisor: '18' });
    expect(fungible.result.some((row: { TokenAddress: string }) => row.TokenAddress === lower(nft))).toBe(false);
    const paged = await ask({ module: 'account', action: 'addresstokenbalance', address: holder, page: '2', offset: '1' });
    expect(paged.result).toEqual(fungible.result.slice(1, 2));

    // Every NFT id minted so far, and who the node says owns it now.
    const ids = [1n, 2n, 3n, 4n, 5n];
    const owners = await Promise.all(
      ids.map((id) => node().readContract({ address: nft, abi: erc721Abi, functionName: 'ownerOf', args: [id], blockNumber: head }).then(lower, () => null)),
    );
    for (const account of ctx().demo.accounts.slice(0, 4)) {
      const held = ids.filter((_, i) => owners[i] === lower(account)).map(String);
      const count = await node().readContract({ address: nft, abi: erc721Abi, functionName: 'balanceOf', args: [account], blockNumber: head });
      const balances = await ask({ module: 'account', action: 'addresstokennftbalance', address: account });
      const inventory = await ask({ module: 'account', action: 'addresstokennftinventory', address: account, contractaddress: nft });
      if (held.length === 0) {
        expect(inventory, account).toEqual({ status: '0', message: 'No transactions found', result: [] });
        continue;
      }
      expect(balances.result.find((row: { TokenAddress: string }) => row.TokenAddress === lower(nft))?.TokenQuantity, account).toBe(count.toString());
      expect(inventory.result, account).toEqual(held.map((id) => ({ TokenAddress: lower(nft), TokenId: id })));
    }
    expect(owners.some((owner) => owner !== null)).toBe(true);
    expect(await ask({ module: 'account', action: 'addresstokennftinventory', address: holder })).toEqual(notOk('Error! Invalid contract address format'));
    expect(await ask({ module: 'account', action: 'addresstokenbalance', address: holder, page: '3', offset: '5000' })).toEqual(
      notOk('Result window is too large, PageNo x Offset size must be less than or equal to 10000'),
    );
  });

  it('contract/getcontractcreation names the deployer, transaction, block time and init code, with contractFactory for a contract created by a contract', async () => {
    await indexedToHead(ctx());
    const { contracts, transactions } = ctx().demo;
    const reply = await ask({ module: 'contract', action: 'getcontractcreation', contractaddresses: [contracts.token, contracts.child, ctx().demo.accounts[4]!].join(',') });
    expect(reply.status).toBe('1');
    expect(reply.result).toHaveLength(2);
    const [token, child] = reply.result as Record<string, string>[];
    expect(Object.keys(token!)).toEqual(['contractAddress', 'contractCreator', 'txHash', 'blockNumber', 'timestamp', 'contractFactory', 'creationBytecode']);
    const expected = async (hash: Hash) => {
      const tx = await node().getTransaction({ hash });
      const block = await node().getBlock({ blockNumber: tx.blockNumber! });
      return { tx, contractCreator: lower(tx.from), txHash: hash, blockNumber: String(tx.blockNumber), timestamp: String(block.timestamp) };
    };
    const deployed = await expected(transactions.deployments.token);
    expect(token).toEqual({
      contractAddress: lower(contracts.token),
      contractCreator: deployed.contractCreator,
      txHash: deployed.txHash,
      blockNumber: deployed.blockNumber,
      timestamp: deployed.timestamp,
      contractFactory: '',
      creationBytecode: deployed.tx.input,
    });
    const created = await expected(transactions.deployments.child);
    // The init code the factory ran, as the node's own call trace shows the creation frame.
    const trace = await node().request({ method: 'debug_traceTransaction' as never, params: [transactions.deployments.child, { tracer: 'callTracer' }] as never });
    const frames = [trace as { type: string; to?: string; input: string; calls?: unknown[] }];
    const creation = frames.flatMap(function walk(frame): { type: string; to?: string; input: string }[] {
      return [frame, ...((frame.calls ?? []) as (typeof frame)[]).flatMap(walk)];
    }).find((frame) => frame.type.startsWith('CREATE') && frame.to?.toLowerCase() === lower(contracts.child));
    expect(child).toEqual({
      contractAddress: lower(contracts.child),
      contractCreator: created.contractCreator,
      txHash: created.txHash,
      blockNumber: created.blockNumber,
      timestamp: created.timestamp,
      contractFactory: lower(contracts.caller),
      creationBytecode: creation!.input,
    });
    expect(await ask({ module: 'contract', action: 'getcontractcreation', contractaddresses: ctx().demo.accounts[4]! })).toEqual({ status: '0', message: 'No data found', result: null });
    const six = Array.from({ length: 6 }, () => contracts.token).join(',');
    expect(await ask({ module: 'contract', action: 'getcontractcreation', contractaddresses: six })).toEqual(notOk('Error! Too many contract addresses: at most 5'));
    expect(await ask({ module: 'contract', action: 'getcontractcreation', contractaddresses: '0x12' })).toEqual(notOk('Error! Invalid address format'));
  });

  it('block/getblockreward and account/getminedblocks are what the node’s receipts paid the miner above the base fee; getblockcountdown counts to a future block; getblocknobytime is getblocknumberbytime', async () => {
    const head = await indexedToHead(ctx());
    const number = (await node().getTransactionReceipt({ hash: ctx().demo.transactions.transfer })).blockNumber;
    const block = await node().getBlock({ blockNumber: number, includeTransactions: true });
    let fees = 0n;
    for (const tx of block.transactions) {
      const receipt = await node().getTransactionReceipt({ hash: tx.hash });
      fees += receipt.gasUsed * (receipt.effectiveGasPrice - block.baseFeePerGas!);
    }
    expect(fees).toBeGreaterThan(0n);
    // The miner sent and received nothing else in the block: its balance grew by exactly that.
    const gained = (await node().getBalance({ address: block.miner, blockNumber: number })) - (await node().getBalance({ address: block.miner, blockNumber: number - 1n }));
    expect(gained).toBe(fees);
    expect(await ask({ module: 'block', action: 'getblockreward', blockno: String(number) })).toEqual({
      status: '1',
      message: 'OK',
      result: { blockNumber: String(number), timeStamp: String(block.timestamp), blockMiner: lower(block.miner), blockReward: fees.toString(), uncles: [], uncleInclusionReward: '0' },
    });
    // account/getminedblocks: every block the node says this miner mined, newest first, each with the same reward.
    const blocks = await Promise.all(Array.from({ length: Number(head) + 1 }, (_, n) => node().getBlock({ blockNumber: BigInt(n) })));
    const minedByNode = blocks.filter((b) => lower(b.miner) === lower(block.miner)).map((b) => String(b.number)).reverse();
    const mined = await ask({ module: 'account', action: 'getminedblocks', address: block.miner, blocktype: 'blocks' });
    expect(mined.result.map((row: { blockNumber: string }) => row.blockNumber)).toEqual(minedByNode);
    expect(mined.result.find((row: { blockNumber: string }) => row.blockNumber === String(number))).toEqual({ blockNumber: String(number), timeStamp: String(block.timestamp), blockReward: fees.toString() });
    expect((await ask({ module: 'account', action: 'getminedblocks', address: block.miner, page: '2', offset: '3' })).result).toEqual(mined.result.slice(3, 6));
    expect(await ask({ module: 'account', action: 'getminedblocks', address: ctx().demo.accounts[7]! })).toEqual({ status: '0', message: 'No transactions found', result: [] });
    expect(await ask({ module: 'block', action: 'getblockreward', blockno: String(head + 1000n) })).toEqual(notOk('Error! Block not found'));
    expect(await ask({ module: 'block', action: 'getblockreward', blockno: 'x' })).toEqual(notOk('Error! Invalid block number'));

    const countdown = await ask({ module: 'block', action: 'getblockcountdown', blockno: String(head + 10n) });
    expect(countdown.result).toMatchObject({ CurrentBlock: String(head), CountdownBlock: String(head + 10n), RemainingBlock: '10' });
    expect(Object.keys(countdown.result)).toEqual(['CurrentBlock', 'CountdownBlock', 'RemainingBlock', 'EstimateTimeInSec']);
    expect(Number(countdown.result.EstimateTimeInSec)).toBeGreaterThan(0);
    expect(await ask({ module: 'block', action: 'getblockcountdown', blockno: String(head) })).toEqual(notOk('Error! Block number already pass'));

    const timestamp = String(block.timestamp);
    for (const closest of ['before', 'after']) {
      const canonical = await ask({ module: 'block', action: 'getblocknobytime', timestamp, closest });
      expect(canonical.status, closest).toBe('1');
      expect(await ask({ module: 'block', action: 'getblocknumberbytime', timestamp, closest }), closest).toEqual(canonical);
    }
  });

  it('token/tokenholderlist, tokenholdercount and tokeninfo agree with the contract’s balances, supply and metadata', async () => {
    const head = await indexedToHead(ctx());
    const token = ctx().demo.contracts.token;
    const holders = await ask({ module: 'token', action: 'tokenholderlist', contractaddress: token });
    expect(holders.status).toBe('1');
    const listed = holders.result as { TokenHolderAddress: Address; TokenHolderQuantity: string }[];
    expect(Object.keys(listed[0]!)).toEqual(['TokenHolderAddress', 'TokenHolderQuantity']);
    for (const row of listed) {
      const balance = await node().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [row.TokenHolderAddress], blockNumber: head });
      expect(row.TokenHolderQuantity, row.TokenHolderAddress).toBe(balance.toString());
    }
    const supply = await node().readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply', blockNumber: head });
    expect(listed.reduce((sum, row) => sum + BigInt(row.TokenHolderQuantity), 0n)).toBe(supply);
    expect(await ask({ module: 'token', action: 'tokenholdercount', contractaddress: token })).toEqual({ status: '1', message: 'OK', result: String(listed.length) });
    expect((await ask({ module: 'token', action: 'tokenholderlist', contractaddress: token, page: '2', offset: '1' })).result).toEqual(listed.slice(1, 2));

    const info = await ask({ module: 'token', action: 'tokeninfo', contractaddress: token });
    expect(info.result).toHaveLength(1);
    expect(Object.keys(info.result[0])).toEqual([
      'contractAddress', 'tokenName', 'symbol', 'divisor', 'tokenType', 'totalSupply', 'blueCheckmark', 'description', 'website', 'email', 'blog', 'reddit',
      'slack', 'facebook', 'twitter', 'bitcointalk', 'github', 'telegram', 'wechat', 'linkedin', 'discord', 'whitepaper', 'tokenPriceUSD',
    ]);
    const [name, symbol, decimals] = await Promise.all(
      (['name', 'symbol', 'decimals'] as const).map((functionName) => node().readContract({ address: token, abi: erc20Abi, functionName, blockNumber: head })),
    );
    expect(info.result[0]).toMatchObject({ contractAddress: lower(token), tokenName: name, symbol, divisor: String(decimals), tokenType: 'ERC20', totalSupply: supply.toString(), email: '', whitepaper: '' });
    expect((await ask({ module: 'token', action: 'tokeninfo', contractaddress: ctx().demo.contracts.nft })).result[0].tokenType).toBe('ERC721');
    expect(await ask({ module: 'token', action: 'tokeninfo', contractaddress: ctx().demo.contracts.emitter })).toEqual(notOk('Error! Token contract not found'));
    expect(await ask({ module: 'token', action: 'tokenholderlist', contractaddress: 'nope' })).toEqual(notOk('Error! Invalid contract address format'));
  });

  it('account/txsBeaconWithdrawal lists the withdrawals of the node’s blocks, none on a chain without a beacon chain', async () => {
    const head = await indexedToHead(ctx());
    const address = ctx().demo.accounts[0]!;
    const blocks = await Promise.all(Array.from({ length: Number(head) + 1 }, (_, n) => node().getBlock({ blockNumber: BigInt(n) })));
    const withdrawals = blocks.flatMap((block) => (block.withdrawals ?? []).filter((w) => lower(w.address) === lower(address)));
    expect(withdrawals).toEqual([]);
    expect(await ask({ module: 'account', action: 'txsBeaconWithdrawal', address })).toEqual({ status: '0', message: 'No transactions found', result: [] });
    expect(await ask({ module: 'account', action: 'txsbeaconwithdrawal', address, startblock: '1', endblock: String(head) })).toEqual({ status: '0', message: 'No transactions found', result: [] });
    expect(await ask({ module: 'account', action: 'txsBeaconWithdrawal', address: '0x12' })).toEqual(notOk('Error! Invalid address format'));
  });

  it('gastracker/gasestimate waits one mean block time for a price every recent block took, and refuses one none took', async () => {
    await indexedToHead(ctx());
    const { blockTime } = (await get(ctx(), '/api/v1/blockchain/network/stats')).body.result as { blockTime: number };
    expect(await ask({ module: 'gastracker', action: 'gasestimate', gasprice: String(10n ** 15n) })).toEqual({ status: '1', message: 'OK', result: String(Math.round(blockTime)) });
    expect(await ask({ module: 'gastracker', action: 'gasestimate', gasprice: '0' })).toEqual(notOk('Error! No recent block would have included a transaction at this gas price'));
    expect(await ask({ module: 'gastracker', action: 'gasestimate', gasprice: '2gwei' })).toEqual(notOk('Error! Invalid request: gasprice: must be a whole number of Wei'));
  });

  it('what the chain cannot tell, and a parameter an action would ignore, are refused plainly in Etherscan’s NOTOK shape', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ module: 'stats', action: 'ethsupply' }, 'Error! The native coin supply is unknown: an EVM node does not tell it'],
      [{ module: 'stats', action: 'ethsupply2' }, 'Error! The native coin supply is unknown: an EVM node does not tell it'],
      [{ module: 'stats', action: 'chainsize', startdate: '2020-01-01', enddate: '2020-01-02' }, 'Error! The chain size is unknown: an EVM node does not tell the size of its database'],
      [{ module: 'account', action: 'getminedblocks', address: ctx().demo.accounts[0]!, blocktype: 'uncles' }, 'Error! Uncles are not indexed, so the uncles an address mined cannot be listed'],
      [{ module: 'token', action: 'nope' }, 'Error! Missing Or invalid Action name'],
      // A parameter that would narrow the answer, sent where it is not read, is refused rather than ignored.
      [{ module: 'account', action: 'txlist', address: ctx().demo.accounts[0]!, txhash: ctx().demo.transactions.transfer }, 'Error! This action does not take the txhash parameter'],
      [{ module: 'account', action: 'txlistinternal', txhash: ctx().demo.transactions.transfer, address: ctx().demo.accounts[0]! }, 'Error! This action does not take the address parameter'],
      [{ module: 'stats', action: 'tokensupply', contractaddress: ctx().demo.contracts.token, address: ctx().demo.accounts[0]! }, 'Error! This action does not take the address parameter'],
    ];
    for (const [params, text] of cases) expect(await etherscan(ctx(), params), params.action).toMatchObject({ status: 200, body: notOk(text) });
  });
}
