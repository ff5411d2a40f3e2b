import { connect } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stopConnectionsAfterLookup, type ConnectionRecorder } from '../../../test/support/connections.ts';
import { startDnsServer, type DnsServer } from '../../../test/support/targets/index.ts';
import {
  PrivateTargetError,
  createDnsServerResolver,
  createPinnedResolution,
  refusalOf,
  resolveVetted,
  type NetworkPolicy,
} from './index.ts';

let dns: DnsServer;
let strict: NetworkPolicy;
let recorder: ConnectionRecorder | undefined;

beforeAll(async () => {
  dns = await startDnsServer({
    'public.test': { A: ['8.8.8.8'], AAAA: ['2606:4700::1111'] },
    'mixed.test': { A: ['8.8.8.8', '10.0.0.5'] },
    'loopback.test': { A: ['127.0.0.1'] },
    'mapped.test': { AAAA: ['::ffff:127.0.0.1'] },
  });
  strict = { allowPrivateTargets: false, resolver: createDnsServerResolver([dns.resolver], 1000) };
});
afterAll(() => dns.close());
afterEach(() => {
  recorder?.stop();
  recorder = undefined;
});

describe('resolveVetted', () => {
  it('returns every address of a public name and connects to the first', async () => {
    const vetted = await resolveVetted('public.test', strict);
    expect(vetted).toMatchObject({ address: '8.8.8.8', family: 4, resolved: true });
    expect(vetted.addresses.map((a) => a.address)).toEqual(['8.8.8.8', '2606:4700::1111']);
  });

  it('refuses a name when any of its addresses is special-purpose, naming the address and the config key', async () => {
    await expect(resolveVetted('mixed.test', strict)).rejects.toThrow(
      /mixed\.test resolves to 10\.0\.0\.5, a private-use address \(10\.0\.0\.0\/8\); .*network\.allow_private_targets is false/,
    );
    await expect(resolveVetted('loopback.test', strict)).rejects.toBeInstanceOf(PrivateTargetError);
    await expect(resolveVetted('mapped.test', strict)).rejects.toThrow(/embedding 127\.0\.0\.1/);
  });

  it('words a refusal as one sentence: the name, the address it resolves to, what kind of address that is', () => {
    expect(refusalOf('localhost', '127.0.0.1')).toBe(
      'localhost resolves to 127.0.0.1, a loopback address (127.0.0.0/8); ' +
        'this server refuses private and special-purpose targets (network.allow_private_targets is false)',
    );
    expect(refusalOf('127.0.0.1', '127.0.0.1')).toBe(
      '127.0.0.1 is a loopback address (127.0.0.0/8); ' +
        'this server refuses private and special-purpose targets (network.allow_private_targets is false)',
    );
    expect(refusalOf('example.test', '8.8.8.8')).toBeNull();
  });

  it('vets literals without asking DNS, including IPv4 shorthands', async () => {
    const before = dns.queries();
    await expect(resolveVetted('2130706433', strict)).rejects.toThrow(/127\.0\.0\.1 is a loopback address/);
    await expect(resolveVetted('[::7f00:1]', strict)).rejects.toThrow(/IPv4-compatible/);
    expect(await resolveVetted('8.8.8.8', strict)).toMatchObject({ address: '8.8.8.8', resolved: false });
    expect(dns.queries()).toBe(before);
  });

  it('allows everything when private targets are allowed, and reports a name that does not exist', async () => {
    const open = { ...strict, allowPrivateTargets: true };
    expect((await resolveVetted('loopback.test', open)).address).toBe('127.0.0.1');
    await expect(resolveVetted('missing.test', open)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('pinned resolution (DNS rebinding)', () => {
  it('asks DNS once per host and connects net sockets only to the vetted address', async () => {
    dns.answerInTurn('rebind-net.test', 'A', [['8.8.8.8'], ['127.0.0.1']]);
    const pinned = createPinnedResolution(strict);
    expect((await pinned.resolve('rebind-net.test')).address).toBe('8.8.8.8');
    recorder = stopConnectionsAfterLookup();
    const socket = connect({ host: 'rebind-net.test', port: 8080, lookup: pinned.lookup });
    const error = await new Promise<Error>((resolve) => socket.once('error', resolve));
    expect(error.message).toContain('stopped by the test');
    expect(recorder.addresses).toEqual(['8.8.8.8']);
  });

  it('sends fetch (undici) requests only to the vetted address', async () => {
    dns.answerInTurn('rebind-fetch.test', 'A', [['8.8.8.8'], ['127.0.0.1']]);
    const pinned = createPinnedResolution(strict);
    await pinned.resolve('rebind-fetch.test');
    const dispatcher = new Agent({ connect: { lookup: pinned.lookup } });
    recorder = stopConnectionsAfterLookup();
    await expect(undiciFetch('http://rebind-fetch.test:8080/', { dispatcher })).rejects.toThrow();
    expect(recorder.addresses).toEqual(['8.8.8.8']);
    await dispatcher.close();
  });

  it('without the pin, the second answer would reach loopback (the fake DNS really rebinds)', async () => {
    dns.answerInTurn('rebind-control.test', 'A', [['8.8.8.8'], ['127.0.0.1']]);
    await resolveVetted('rebind-control.test', strict);
    const unpinned = createPinnedResolution({ ...strict, allowPrivateTargets: true });
    expect((await unpinned.resolve('rebind-control.test')).address).toBe('127.0.0.1');
  });

  it('refuses through lookup when the first answer is already private', async () => {
    dns.answerInTurn('rebind-first.test', 'A', [['127.0.0.1']]);
    const pinned = createPinnedResolution(strict);
    const socket = connect({ host: 'rebind-first.test', port: 8080, lookup: pinned.lookup });
    const error = await new Promise<Error>((resolve) => socket.once('error', resolve));
    expect(error).toBeInstanceOf(PrivateTargetError);
  });
});
