import { describe, expect, it } from 'vitest';
import { dataUriMetadata } from './nft-metadata.js';

describe('dataUriMetadata', () => {
  const json = { name: 'Token #1', description: 'On chain', image: 'data:image/svg+xml;base64,PHN2Zy8+', attributes: [] };

  it('reads the name, description and image of base64 and percent-encoded JSON data URIs', () => {
    const expected = { name: 'Token #1', description: 'On chain', image: 'data:image/svg+xml;base64,PHN2Zy8+' };
    expect(dataUriMetadata(`data:application/json;base64,${btoa(JSON.stringify(json))}`)).toEqual(expected);
    expect(dataUriMetadata(`data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(json))}`)).toEqual(expected);
  });

  it('gives null for fields that are missing or not text', () => {
    expect(dataUriMetadata(`data:application/json,${encodeURIComponent('{"name":7}')}`)).toEqual({ name: null, description: null, image: null });
  });

  it('reads nothing off the chain: other URIs, malformed JSON and non-objects are null', () => {
    expect(dataUriMetadata('https://example.com/1.json')).toBeNull();
    expect(dataUriMetadata('ipfs://bafy/1')).toBeNull();
    expect(dataUriMetadata('data:application/json,{not json')).toBeNull();
    expect(dataUriMetadata('data:application/json;base64,%%%')).toBeNull();
    expect(dataUriMetadata('data:application/json,42')).toBeNull();
  });
});
