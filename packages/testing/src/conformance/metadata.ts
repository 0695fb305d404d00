import { describe, expect } from 'vitest';
import type { StoredMetadataProfile } from '@chainlens/core';
import { fixtureAddress, makeChain } from '../fixtures.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

/** A full profile of `label`'s address, every field set. */
export function makeProfile(label: string, changes: Partial<StoredMetadataProfile> = {}): StoredMetadataProfile {
  return {
    address: fixtureAddress(label),
    type: 'token',
    name: `Token ${label} — “quoted” 名前 🚀`,
    symbol: 'TKN',
    logo: 'https://example.com/logo.png',
    description: "Line one\nline two; DROP TABLE tokens; --'",
    website: 'https://example.com',
    whitepaper: null,
    social: { twitter: 'https://x.com/example', telegram: null, discord: 'https://discord.gg/x', github: null },
    verified: true,
    verifiedBy: 'ops@example.com',
    verifiedAt: '2026-11-01T10:00:00.000Z',
    riskScore: 12.5,
    trustLevel: 'high',
    auditReports: [
      { auditor: 'Audit One', date: '2026-01-31', url: 'https://example.com/a1.pdf' },
      { auditor: 'Audit Two', date: '2025-12-01', url: 'https://example.com/a2.pdf' },
    ],
    tags: ['defi', 'stablecoin'],
    updatedAt: '2026-11-22T12:00:00.000Z',
    ...changes,
  };
}

/** putMetadataProfile, getMetadataProfile, getMetadataProfiles. */
export function metadataTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('metadata profiles', () => {
    test('a profile reads back equal, and an unknown address is null', async (storage) => {
      const profile = makeProfile('a');
      await storage.putMetadataProfile(profile);
      expect(await storage.getMetadataProfile(profile.address)).toEqual(profile);
      expect(await storage.getMetadataProfile(fixtureAddress('nobody'))).toBeNull();
    });

    test('a put replaces the whole profile, empty lists and nulls included', async (storage) => {
      await storage.putMetadataProfile(makeProfile('a'));
      const replaced = makeProfile('a', { name: null, auditReports: [], tags: [], verified: false, verifiedAt: null, riskScore: 0 });
      await storage.putMetadataProfile(replaced);
      expect(await storage.getMetadataProfile(replaced.address)).toEqual(replaced);
    });

    test('getMetadataProfiles answers the profiles that exist among many addresses', async (storage) => {
      const profiles = ['a', 'b', 'c'].map((label) => makeProfile(label));
      for (const profile of profiles) await storage.putMetadataProfile(profile);
      const found = await storage.getMetadataProfiles([fixtureAddress('c'), fixtureAddress('nobody'), fixtureAddress('a'), fixtureAddress('a')]);
      expect(found.sort((x, y) => (x.address < y.address ? -1 : 1))).toEqual([profiles[0], profiles[2]].sort((x, y) => (x!.address < y!.address ? -1 : 1)));
      expect(await storage.getMetadataProfiles([])).toEqual([]);
    });

    test('listVerifiedAddresses answers the addresses whose profile is verified', async (storage) => {
      expect(await storage.listVerifiedAddresses()).toEqual([]);
      await storage.putMetadataProfile(makeProfile('a'));
      await storage.putMetadataProfile(makeProfile('b', { verified: false }));
      await storage.putMetadataProfile(makeProfile('c'));
      expect((await storage.listVerifiedAddresses()).sort()).toEqual([fixtureAddress('a'), fixtureAddress('c')].sort());
      await storage.putMetadataProfile(makeProfile('c', { verified: false }));
      expect(await storage.listVerifiedAddresses()).toEqual([fixtureAddress('a')]);
    });

    test('a returned profile is a copy: changing it changes nothing stored', async (storage) => {
      const profile = makeProfile('a');
      await storage.putMetadataProfile(profile);
      const read = (await storage.getMetadataProfile(profile.address))!;
      read.tags.push('changed');
      read.social.twitter = null;
      profile.tags.push('changed too');
      expect(await storage.getMetadataProfile(profile.address)).toEqual(makeProfile('a'));
    });

    test('rollbackTo leaves profiles alone', async (storage) => {
      const chain = makeChain({ blocks: 4 });
      await writeChain(storage, chain);
      const profile = makeProfile('a');
      await storage.putMetadataProfile(profile);
      await storage.rollbackTo(0n);
      expect(await storage.getMetadataProfile(profile.address)).toEqual(profile);
    });
  });
}
