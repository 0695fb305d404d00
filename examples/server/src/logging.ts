import { pino, type Level, type Logger } from 'pino';

/** How `npm start` writes its logs: lines for a person at a terminal, or JSON lines for a log collector. */
export type LogFormat = 'pretty' | 'json';

/** `LOG_FORMAT` when it names a format; with `auto`, pretty exactly when stdout is a terminal. */
export function chooseLogFormat(setting: LogFormat | 'auto', stdoutIsTty: boolean | undefined): LogFormat {
  if (setting !== 'auto') return setting;
  return stdoutIsTty === true ? 'pretty' : 'json';
}

/**
 * The server's logger, on stdout unless given another `destination`. Pretty lines come from
 * pino-pretty as a synchronous stream in this process, not a worker transport: the server is one
 * bundled file, with no module for a worker to load.
 */
export async function createLogger(level: Level | 'silent', format: LogFormat, destination?: NodeJS.WritableStream): Promise<Logger> {
  const options = { level, name: 'chainlens' };
  if (format === 'json') return destination ? pino(options, destination) : pino(options);
  // Loaded only here: a server logging JSON never pays for it.
  const { default: pretty } = await import('pino-pretty');
  const lines = pretty({
    destination: destination ?? 1,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name,module',
    messageFormat: '{if module}[{module}] {end}{msg}',
  });
  return pino(options, lines);
}
