import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { nodeRequire } from '../../runtime/node-require.js';
import { asText, createHttpKernel } from '../../http/index.js';
import { uiPage } from './ui-page.js';
import { uiRoutes } from './ui-routes.js';

/** What the suite's global setup built (packages/ui/test/global-setup.ts). */
const built = (file: string) => readFileSync(join(dirname(nodeRequire.resolve('@chainlens/ui/package.json')), 'dist', file), 'utf8');

const get = (path: string, url: string) =>
  createHttpKernel({ routes: uiRoutes(path), logger: pino({ level: 'silent' }), bodyLimit: 1024 })
    .handle({ method: 'GET', url, headers: {}, ip: '127.0.0.1' })
    .then(asText);

describe('the explorer page routes', () => {
  it('serve the page at its path and the built script and style sheet under {path}/assets/', async () => {
    const page = await get('/explorer', '/explorer');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toBe(uiPage('/explorer'));
    const script = await get('/explorer', '/explorer/assets/app.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toBe(built('app.js'));
    const styles = await get('/', '/assets/app.css');
    expect(styles.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(styles.body).toBe(built('app.css'));
    expect((await get('/', '/assets/other.js')).status).toBe(404);
  });

  it('write every URL of the page relative to it, so it works wherever ChainLens is mounted', () => {
    // At {mount}/: the files beside it, the mount point is the page's folder.
    expect(uiPage('/')).toContain('<html lang="en" data-root="./">');
    expect(uiPage('/')).toContain('<script type="module" src="assets/app.js"></script>');
    // At {mount}/explorer: the files under explorer/, the mount point is still the page's folder.
    expect(uiPage('/explorer')).toContain('data-root="./"');
    expect(uiPage('/explorer')).toContain('<link rel="stylesheet" href="explorer/assets/app.css">');
    // At {mount}/tools/explorer: one folder up.
    expect(uiPage('/tools/explorer')).toContain('data-root="../"');
    expect(uiPage('/tools/explorer')).toContain('src="explorer/assets/app.js"');
    expect(uiPage('/')).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});
