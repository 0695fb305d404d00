import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './api/context.js';

/** An example program running as a child process. */
export interface RunningExample {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Waits for the line `pattern` matches and answers its first group (the URL it prints). */
  listening(pattern: RegExp): Promise<string>;
  /** Waits until `url` answers 200 and resolves its envelope's result. */
  indexed(url: string): Promise<unknown>;
  /** Kills it if it still runs. */
  stop(): void;
}

/** Runs an example's `src/main.ts` as `npm start` does (TypeScript sources through tsx). */
export function startExample(main: URL, env: Record<string, string>): RunningExample {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fileURLToPath(main)], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    listening: (pattern) =>
      waitFor(() => {
        if (child.exitCode !== null) throw new Error(`the example exited with ${child.exitCode}: ${output}`);
        return pattern.exec(output)?.[1];
      }, 'the example to listen'),
    indexed: (url) =>
      waitFor(async () => {
        const answer = await fetch(url);
        return answer.status === 200 ? ((await answer.json()) as { result: unknown }).result : null;
      }, `${url} to answer 200`),
    stop() {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
