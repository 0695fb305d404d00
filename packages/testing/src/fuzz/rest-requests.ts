import fc from 'fast-check';
import type { z } from 'zod';
import { isEtherscanPath, type Route } from '@chainlens/core';
import { acceptedBy, headerText, hostileJson, hostileText } from './values.js';

/** One generated HTTP request, and the JSON value its body was made from (when it is JSON). */
export interface FuzzRequest {
  route: Route;
  method: string;
  /** Path and query, relative to the served base URL. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The body before serialization, when it is well-formed JSON. */
  json?: unknown;
  /** Which credential set of {@link FuzzPools.headers} it carries. */
  credential: string;
}

/** What requests are made of: valid values to draw from and the credential header sets. */
export interface FuzzPools {
  /** Well-formed values of every kind (see `validCandidates`); each field keeps those its schema accepts. */
  candidates: readonly unknown[];
  headers: Record<string, Record<string, string>>;
  /** Names of the credential sets in `headers` that authenticate (or are anonymous). */
  validCredentials: string[];
  /** Largest body the explorer accepts: some bodies go past it. */
  bodyLimit: number;
  /** Etherscan modules and their action names, as the explorer serves them. */
  etherscan: Record<string, string[]>;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', '*/*', 'application/json; charset=utf-16'];
/** Parameter names Etherscan clients send, whatever the action. */
const ETHERSCAN_PARAMS = ['address', 'contractaddress', 'txhash', 'blockno', 'page', 'offset', 'startblock', 'endblock', 'sort', 'tag', 'topic0', 'topic1', 'topic0_1_opr', 'fromBlock', 'toBlock', 'timestamp', 'closest', 'boolean', 'hex', 'data', 'to', 'gas', 'value', 'index', 'position', 'sourceCode', 'contractname', 'compilerversion', 'guid', 'chainid', 'apikey', 'id', 'codeformat', 'optimizationUsed', 'runs'];

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  return (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};
}

/** `text` in URL form, or `null` when it has none (a lone surrogate). */
function encoded(text: string): string | null {
  try {
    return encodeURIComponent(text);
  } catch {
    return null;
  }
}

/** A value for one field: one its schema accepts, or a hostile one; `undefined` leaves it out. */
function fieldValue(schema: z.ZodType, pools: FuzzPools, hostile: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const valid = acceptedBy(schema, pools.candidates);
  const missingOrHostile = [{ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: hostile }];
  return valid.length === 0 ? fc.oneof(...missingOrHostile) : fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...valid) }, ...missingOrHostile);
}

/** An object for `schema`'s fields (each valid, hostile or missing), sometimes with extra ones. */
function objectFor(schema: z.ZodType | undefined, pools: FuzzPools, hostile: fc.Arbitrary<unknown>, textOnly: boolean): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(shapeOf(schema)).map(([name, field]) => [name, fieldValue(field, pools, hostile)] as const);
  const valid = candidatesOf(pools, textOnly);
  const extra = fc.dictionary(fc.oneof(hostileText, fc.constantFrom('__proto__', 'constructor', 'isAdmin', 'roles', 'id')), fc.oneof(valid, hostile), { maxKeys: 3 });
  return fc.tuple(fc.tuple(...fields.map(([, value]) => value)), fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extra })).map(([values, more]) => {
    const object: Record<string, unknown> = { ...more };
    fields.forEach(([name], i) => {
      if (values[i] !== undefined) object[name] = values[i];
    });
    return object;
  });
}

/** Any well-formed value (only text, for query strings), whichever field it is meant for. */
function candidatesOf(pools: FuzzPools, textOnly: boolean): fc.Arbitrary<unknown> {
  const values = textOnly ? pools.candidates.filter((value) => typeof value === 'string') : pools.candidates;
  return fc.constantFrom(...values);
}

/** A query string of `values` (text only; a non-string value is sent as its JSON text). */
function queryString(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([name, value]) => [encoded(name), encoded(typeof value === 'string' ? value : JSON.stringify(value) ?? '')] as const)
    .filter((pair): pair is readonly [string, string] => pair[0] !== null && pair[1] !== null)
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** A body as sent, the JSON value it encodes and its content type. */
interface SentBody {
  body?: string;
  json?: unknown;
  contentType?: string;
}

/** A whole body as sent: the JSON of `json`, or something else entirely. */
function bodyText(json: fc.Arbitrary<Record<string, unknown>>, bodyLimit: number): fc.Arbitrary<SentBody> {
  return fc.oneof<fc.WeightedArbitrary<SentBody>[]>(
    { weight: 12, arbitrary: json.map((value) => ({ body: JSON.stringify(value), json: value, contentType: 'application/json' })) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":1,}', '[1,2', "{'a':1}", 'undefined', '\u0000', '{"a":"\ud800"}', 'null', '[]', '"text"', '42', '').map((body) => ({ body, contentType: 'application/json' })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => ({ body: JSON.stringify(value), json: value, contentType: 'application/json' })) },
    { weight: 1, arbitrary: json.map((value) => ({ body: queryString(value), contentType: 'application/x-www-form-urlencoded' })) },
    { weight: 1, arbitrary: fc.tuple(json, fc.constantFrom(...CONTENT_TYPES)).map(([value, contentType]) => ({ body: JSON.stringify(value), json: value, contentType })) },
    { weight: 1, arbitrary: fc.constant({ body: `{"pad":"${'x'.repeat(bodyLimit + 10)}"}`, contentType: 'application/json' }) },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

/** Credentials and junk headers. */
function headersFor(pools: FuzzPools): fc.Arbitrary<{ credential: string; headers: Record<string, string> }> {
  const junkName = fc.constantFrom('authorization', 'x-api-key', 'x-forwarded-for', 'accept', 'accept-encoding', 'x-real-ip', 'origin', 'cookie', 'if-none-match', 'x-fuzz');
  return fc
    .tuple(fc.constantFrom(...Object.keys(pools.headers)), fc.dictionary(junkName, headerText, { maxKeys: 2 }), fc.nat(9), fc.constantFrom(...pools.validCredentials))
    // Most requests carry a valid credential (or none), so they get past authentication into the routes.
    .map(([any, junk, pick, valid]) => [pick < 3 ? any : valid, junk, pick] as const)
    .map(([credential, junk, pick]) => {
      // Junk authorization or key headers replace the credential; others only travel beside it.
      const headers = { ...pools.headers[credential], ...(pick === 0 ? junk : Object.fromEntries(Object.entries(junk).filter(([name]) => name !== 'authorization' && name !== 'x-api-key'))) };
      return { credential: pick === 0 && ('authorization' in junk || 'x-api-key' in junk) ? 'junk' : credential, headers };
    });
}

/** Path segments of `route` filled with valid or hostile text. */
function pathFor(route: Route, pools: FuzzPools): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const params = shapeOf(route.params);
  const segments = names.map((name) => {
    const valid = params[name] ? acceptedBy(params[name], pools.candidates).filter((value): value is string => typeof value === 'string') : [];
    const hostile = hostileText.map(encoded).filter((text): text is string => text !== null && text !== '');
    return valid.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...valid).map(encodeURIComponent) }, { weight: 2, arbitrary: hostile }) : hostile;
  });
  return fc.tuple(...segments).map((values) => {
    let i = 0;
    return route.path.replace(/:(\w+)/g, () => values[i++]!);
  });
}

/** Requests aimed at `route`: its own schemas decide which fields exist and which values are valid. */
export function requestsFor(route: Route, pools: FuzzPools): fc.Arbitrary<FuzzRequest> {
  const etherscan = isEtherscanPath(route.path);
  const query = etherscan ? etherscanParams(pools) : objectFor(route.query, pools, hostileText, true);
  const json = etherscan ? etherscanParams(pools) : objectFor(route.body, pools, hostileJson, false);
  const sendsBody = route.body !== undefined || route.method !== 'GET';
  return fc
    .record({
      method: fc.oneof({ weight: 19, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      path: pathFor(route, pools),
      query,
      rawQuery: fc.oneof({ weight: 9, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('&', '%', '%zz', '=&=', 'a=1&a=2', '&&&x', `q=${'%'.repeat(50)}`) }),
      body: sendsBody ? bodyText(json, pools.bodyLimit) : fc.constant<SentBody>({}),
      auth: headersFor(pools),
    })
    .map(({ method, path, query, rawQuery, body, auth }) => {
      const search = [queryString(query), rawQuery].filter((part) => part !== '').join('&');
      const headers = { ...auth.headers, ...(body.contentType && body.body !== undefined ? { 'content-type': body.contentType } : {}) };
      // GET and HEAD carry no body over fetch.
      const withBody = method !== 'GET' && body.body !== undefined;
      return {
        route,
        method,
        url: search === '' ? path : `${path}?${search}`,
        headers,
        ...(withBody ? { body: body.body, json: body.json } : {}),
        credential: auth.credential,
      };
    });
}

/** Etherscan parameters: a module and action it knows (or not), and parameters by their usual names. */
function etherscanParams(pools: FuzzPools): fc.Arbitrary<Record<string, unknown>> {
  const modules = Object.keys(pools.etherscan);
  const moduleAndAction = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...modules).chain((module) => fc.record({ module: fc.constant(module), action: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...pools.etherscan[module]!) }, { weight: 1, arbitrary: hostileText }) })) },
    { weight: 1, arbitrary: fc.record({ module: hostileText, action: hostileText }) },
    { weight: 1, arbitrary: fc.constant({}) },
  );
  const value = fc.oneof({ weight: 3, arbitrary: candidatesOf(pools, true) }, { weight: 2, arbitrary: hostileText });
  return fc.tuple(moduleAndAction, fc.dictionary(fc.constantFrom(...ETHERSCAN_PARAMS), value, { maxKeys: 6 })).map(([names, params]) => ({ ...params, ...names }));
}
