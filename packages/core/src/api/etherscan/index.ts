import { z } from 'zod';
import type { ChainClient } from '../../chain/chain-client.js';
import { defineRoute, type Route, type RouteContext } from '../../http/index.js';
import type { Services } from '../../explorer-services.js';
import { accountModule } from './account.js';
import { blockModule } from './block.js';
import { contractModule } from './contract.js';
import { InvalidActionError, InvalidModuleError, UnsupportedChainError } from './etherscan-errors.js';
import { etherscanFormat } from './etherscan-format.js';
import { gastrackerModule } from './gastracker.js';
import { logsModule } from './logs.js';
import type { EtherscanAction, EtherscanCaching, EtherscanModule } from './module.js';
import { mergeParams, type EtherscanParams } from './params.js';
import { proxyModule } from './proxy.js';
import { statsModule } from './stats.js';
import { tokenModule } from './token.js';
import { transactionModule } from './transaction.js';

/** Body values as clients send them: form fields are text; JSON scalars are read as text too. */
const bodySchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional();

/** Where the API is served: Etherscan's first path, where `chainid` is optional, and its V2 path, where it is required. */
const PATHS: readonly { path: string; chainIdRequired: boolean }[] = [
  { path: '/api', chainIdRequired: false },
  { path: '/api/', chainIdRequired: false },
  { path: '/v2/api', chainIdRequired: true },
  { path: '/v2/api/', chainIdRequired: true },
];

/** Whether `path` is one the Etherscan-compatible API is served at (`/api`, `/v2/api`, with or without a final slash). */
export function isEtherscanPath(path: string): boolean {
  return PATHS.some((served) => served.path === path);
}

/**
 * The Etherscan-compatible API: `GET|POST {base_url}/api?module=…&action=…` and, as Etherscan's
 * V2 API, `{base_url}/v2/api?chainid=…&module=…&action=…`; parameters from the query string, a
 * form body or a JSON body. Etherscan's envelope and texts, HTTP 200 for every answer; `apikey`
 * authenticates like `X-API-Key` and counts against the same rate limits.
 */
export function etherscanRoutes(services: Services, chain: ChainClient): Route[] {
  const modules = etherscanModules(services, chain);
  // Action names are matched whatever their case (`getLogs`, `getlogs`).
  const actions = new Map(
    Object.entries(modules).map(([name, module]) => [name, new Map(Object.entries(module.actions).map(([action, run]) => [action.toLowerCase(), run]))]),
  );

  // Keyed as `actions` are: an action's caching by its lower-cased name.
  const caching = new Map(
    Object.entries(modules).map(([name, module]) => [name, new Map(Object.entries(module.caching ?? {}).map(([action, how]) => [action.toLowerCase(), how]))]),
  );
  /** The caching of the action a GET request's parameters name, if it has one. */
  const cachingOf = (params: Readonly<Record<string, unknown>>): EtherscanCaching | undefined =>
    caching.get(String(params.module ?? ''))?.get(String(params.action ?? '').toLowerCase());

  async function handle(chainIdRequired: boolean, { query, body, principal }: RouteContext<Record<string, unknown>, Record<string, string>, Record<string, string> | undefined>) {
    const params = mergeParams(query, body);
    if (params.chainid !== undefined || chainIdRequired) {
      if (params.chainid !== String(await chain.chainId())) throw new UnsupportedChainError();
    }
    const moduleName = params.module ?? '';
    const module = Object.hasOwn(modules, moduleName) ? modules[moduleName]! : undefined;
    if (!module) throw new InvalidModuleError();
    const action: EtherscanAction | undefined = actions.get(moduleName)!.get((params.action ?? '').toLowerCase());
    if (action) return action(params, principal);
    if (module.unknownAction) return module.unknownAction(params.action ?? '', params);
    throw new InvalidActionError();
  }

  return ['GET', 'POST'].flatMap((method) =>
    PATHS.map(({ path, chainIdRequired }) =>
      defineRoute({
        method: method as 'GET' | 'POST',
        path,
        auth: 'none',
        summary: chainIdRequired
          ? 'Etherscan-compatible API, V2 path: chainid (required), module and action as parameters'
          : 'Etherscan-compatible API: module and action as parameters',
        formBody: true,
        apiKeyParam: 'apikey',
        // GET answers are keyed by their URL, which holds every parameter; a POST's are in its body.
        ...(method === 'GET' && {
          cache: 'head' as const,
          cacheable: (query: Readonly<Record<string, unknown>>) => cachingOf(query) !== undefined,
          cacheScopes: (_params: Readonly<Record<string, string>>, query: Readonly<Record<string, unknown>>) => cachingOf(query)?.scopes?.(query as EtherscanParams),
          appendOnlyPage: (query: Record<string, string>, answer: unknown) => cachingOf(query)?.appendOnly?.(query, answer) ?? false,
        }),
        format: etherscanFormat,
        query: z.record(z.string(), z.string()),
        body: bodySchema,
        handler: (context) => handle(chainIdRequired, context),
      }),
    ),
  );
}

/** The modules `/api` serves, by Etherscan's module name. */
export function etherscanModules(services: Services, chain: ChainClient): Record<string, EtherscanModule> {
  return {
    account: accountModule(services),
    contract: contractModule(services),
    transaction: transactionModule(services),
    block: blockModule(services),
    logs: logsModule(services),
    stats: statsModule(services),
    token: tokenModule(services),
    gastracker: gastrackerModule(services),
    proxy: proxyModule(services, chain),
  };
}
