import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { decodeAbiParameters, encodeFunctionData, parseEther, type AbiFunction } from 'viem';
import { ApiError, v1 } from '../api.js';
import { formatOutput, InputError, parseInput } from '../abi-input.js';
import { useLoad } from '../load.js';
import type { Contract } from '../records.js';
import { rpc, RpcError } from '../rpc.js';
import { useWallet } from '../wallet.js';
import { AddressLink } from './links.js';
import { Loaded } from './states.js';
import { SendStatus, useSend, WalletBar } from './wallet-send.js';

/** The ABI the contract is used through: its implementation's for a proxy (when verified), else its own verified one. */
function useContractAbi(contract: Contract) {
  return useLoad(async () => {
    const implementation = contract.isProxy && contract.implementation ? await abiOf(contract.implementation) : null;
    if (implementation) return { abi: implementation, through: contract.implementation };
    return { abi: contract.verified ? await abiOf(contract.address) : null, through: null };
  }, [contract.address]);
}

async function abiOf(address: string): Promise<AbiFunction[] | null> {
  try {
    return (await v1<{ type: string }[]>(`contract/${address}/abi`)).filter((entry): entry is AbiFunction => entry.type === 'function');
  } catch (error) {
    if (error instanceof ApiError && error.notFound) return null;
    throw error;
  }
}

const isRead = (fn: AbiFunction) => fn.stateMutability === 'view' || fn.stateMutability === 'pure';

/** The contract's view and pure functions, called in place through the explorer's JSON-RPC (`eth_call`). */
export function ReadContract({ contract }: { contract: Contract }) {
  const abi = useContractAbi(contract);
  return (
    <section aria-labelledby="read-heading">
      <h2 id="read-heading">Read contract</h2>
      <Loaded loading={abi} what="the contract's ABI">
        {({ abi: functions, through }) => (
          <FunctionList contract={contract} functions={functions?.filter(isRead) ?? null} through={through} empty="The verified ABI has no view or pure function.">
            {(fn, id) => <ReadFunction address={contract.address} fn={fn} id={id} />}
          </FunctionList>
        )}
      </Loaded>
    </section>
  );
}

/** The contract's state-changing functions, sent as transactions from the visitor's wallet. */
export function WriteContract({ contract }: { contract: Contract }) {
  const abi = useContractAbi(contract);
  const wallet = useWallet();
  return (
    <section aria-labelledby="write-heading">
      <h2 id="write-heading">Write contract</h2>
      <WalletBar wallet={wallet} />
      <Loaded loading={abi} what="the contract's ABI">
        {({ abi: functions, through }) => (
          <FunctionList contract={contract} functions={functions?.filter((fn) => !isRead(fn)) ?? null} through={through} empty="The verified ABI has no function that changes state.">
            {(fn, id) => <WriteFunction address={contract.address} fn={fn} id={id} wallet={wallet} />}
          </FunctionList>
        )}
      </Loaded>
    </section>
  );
}

function FunctionList({ contract, functions, through, empty, children }: { contract: Contract; functions: AbiFunction[] | null; through: string | null; empty: string; children: (fn: AbiFunction, id: string) => ComponentChildren }) {
  if (functions === null) return <p class="muted">This contract's source code is not verified{contract.isProxy ? ', nor its implementation’s' : ''}: its functions are not known.</p>;
  return (
    <>
      {through && (
        <p>
          A proxy: used through the ABI of its implementation <AddressLink address={through} full />.
        </p>
      )}
      {functions.length === 0 ? <p class="muted">{empty}</p> : <ol class="functions">{functions.map((fn, index) => <li key={`${fn.name}-${index}`}>{children(fn, `fn-${index}`)}</li>)}</ol>}
    </>
  );
}

/** Reads the inputs' text into the function's arguments; the first input that cannot be read throws its name and reason. */
function argumentsOf(fn: AbiFunction, texts: string[]): unknown[] {
  return fn.inputs.map((input, index) => {
    try {
      return parseInput(input, texts[index] ?? '');
    } catch (error) {
      throw error instanceof InputError ? new InputError(`${input.name || `input ${index + 1}`}: ${error.message}`) : error;
    }
  });
}

/** One function as a form: its name, an input per parameter, then `children` (its button and answer). */
function FunctionForm({ fn, id, texts, setTexts, onSubmit, children }: { fn: AbiFunction; id: string; texts: string[]; setTexts: (texts: string[]) => void; onSubmit: () => void; children: ComponentChildren }) {
  return (
    <form
      class="function"
      aria-labelledby={`${id}-name`}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h3 id={`${id}-name`} class="mono">
        {fn.name}
      </h3>
      <Inputs fn={fn} id={id} texts={texts} setTexts={setTexts} />
      {children}
    </form>
  );
}

function Inputs({ fn, id, texts, setTexts }: { fn: AbiFunction; id: string; texts: string[]; setTexts: (texts: string[]) => void }) {
  return (
    <>
      {fn.inputs.map((input, index) => (
        <div class="field" key={index}>
          <label for={`${id}-${index}`}>
            {input.name || `input ${index + 1}`} <span class="muted">({input.type})</span>
          </label>
          <input
            id={`${id}-${index}`}
            value={texts[index] ?? ''}
            autoComplete="off"
            spellcheck={false}
            onInput={(event) => setTexts(Object.assign([...texts], { [index]: event.currentTarget.value }))}
          />
        </div>
      ))}
    </>
  );
}

type Answer = { state: 'idle' } | { state: 'calling' } | { state: 'done'; values: string[] } | { state: 'failed'; message: string };

function ReadFunction({ address, fn, id }: { address: string; fn: AbiFunction; id: string }) {
  const [texts, setTexts] = useState<string[]>([]);
  const [answer, setAnswer] = useState<Answer>({ state: 'idle' });
  const call = async () => {
    setAnswer({ state: 'calling' });
    try {
      const data = encodeFunctionData({ abi: [fn], functionName: fn.name, args: argumentsOf(fn, texts) });
      const result = await rpc<`0x${string}`>('eth_call', [{ to: address, data }, 'latest']);
      const values = decodeAbiParameters(fn.outputs, result) as readonly unknown[];
      setAnswer({ state: 'done', values: values.map(formatOutput) });
    } catch (error) {
      setAnswer({ state: 'failed', message: failureText(error) });
    }
  };
  // A function without inputs has one answer: shown at once.
  useEffect(() => {
    if (fn.inputs.length === 0) void call();
  }, []);
  return (
    <FunctionForm fn={fn} id={id} texts={texts} setTexts={setTexts} onSubmit={() => void call()}>
      <button type="submit">{fn.inputs.length === 0 ? 'Read again' : 'Query'}</button>
      <div aria-live="polite">
        {answer.state === 'calling' && <p class="muted">Calling…</p>}
        {answer.state === 'failed' && <p class="error-text">{answer.message}</p>}
        {answer.state === 'done' && (
          <dl class="outputs" aria-label={`${fn.name} returned`}>
            {fn.outputs.map((output, index) => (
              <div key={index}>
                <dt>
                  {output.name || `output ${index + 1}`} <span class="muted">({output.type})</span>
                </dt>
                <dd class="mono">{answer.values[index]}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    </FunctionForm>
  );
}

function WriteFunction({ address, fn, id, wallet }: { address: string; fn: AbiFunction; id: string; wallet: ReturnType<typeof useWallet> }) {
  const [texts, setTexts] = useState<string[]>([]);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { sending, send } = useSend(wallet);
  const payable = fn.stateMutability === 'payable';
  return (
    <FunctionForm
      fn={fn}
      id={id}
      texts={texts}
      setTexts={setTexts}
      onSubmit={() => {
        try {
          const data = encodeFunctionData({ abi: [fn], functionName: fn.name, args: argumentsOf(fn, texts) });
          const wei = payable ? parseValue(value) : 0n;
          setProblem(null);
          void send({ to: address, data, value: wei });
        } catch (error) {
          setProblem(failureText(error));
        }
      }}
    >
      {payable && (
        <div class="field">
          <label for={`${id}-value`}>
            Value <span class="muted">(ETH)</span>
          </label>
          <input id={`${id}-value`} value={value} inputMode="decimal" autoComplete="off" onInput={(event) => setValue(event.currentTarget.value)} />
        </div>
      )}
      <button type="submit" disabled={!wallet.account || sending.state === 'signing' || sending.state === 'pending'}>
        Write
      </button>
      <div aria-live="polite">
        {problem && <p class="error-text">{problem}</p>}
        <SendStatus sending={sending} />
      </div>
    </FunctionForm>
  );
}

/** An amount of ETH typed in decimal, in Wei. */
function parseValue(text: string): bigint {
  const trimmed = text.trim();
  if (trimmed === '') return 0n;
  if (!/^\d+(\.\d{1,18})?$/.test(trimmed)) throw new InputError('Value: an amount of ETH in decimal, at most 18 decimals');
  return parseEther(trimmed);
}

/** What went wrong, for people: the input's reason, the node's revert, or the error's message. */
function failureText(error: unknown): string {
  if (error instanceof RpcError) return `The call failed: ${error.message}${typeof error.data === 'string' && error.data !== '0x' ? ` (${error.data})` : ''}`;
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
