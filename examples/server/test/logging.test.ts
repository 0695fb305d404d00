import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, createLogger, type LogFormat } from '../src/logging.js';

/** What `format`'s logger writes for one info line of the `http` module. */
async function written(format: LogFormat): Promise<string> {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const logger = await createLogger('info', format, sink);
  logger.child({ module: 'http' }).info({ status: 200 }, 'GET /api/v1/health');
  logger.debug('below the level');
  return text;
}

describe("npm start's logs", () => {
  it('are pretty exactly when stdout is a terminal, unless LOG_FORMAT names a format', () => {
    const cases: [LogFormat | 'auto', boolean | undefined, LogFormat][] = [
      ['auto', true, 'pretty'],
      ['auto', false, 'json'],
      ['auto', undefined, 'json'],
      ['json', true, 'json'],
      ['pretty', false, 'pretty'],
    ];
    for (const [setting, tty, format] of cases) expect(chooseLogFormat(setting, tty), `${setting}, tty ${tty}`).toBe(format);
  });

  it('are human-readable lines when pretty, JSON lines otherwise', async () => {
    const pretty = await written('pretty');
    expect(pretty).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[http\] GET \/api\/v1\/health\n {4}status: 200\n$/);
    const json = (await written('json')).trim().split('\n');
    expect(json).toHaveLength(1);
    expect(JSON.parse(json[0]!)).toMatchObject({ level: 30, name: 'chainlens', module: 'http', status: 200, msg: 'GET /api/v1/health' });
  });
});
