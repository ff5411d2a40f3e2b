import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { skipWithout } from './services.ts';
import { generateCertificate, generateTestCa, startPostgresServer } from './targets/index.ts';

const ours = () => readdirSync(tmpdir()).filter((n) => n.startsWith('tocsin-pg-'));

// The servers of the tests' own must fail clearly (not wait out the bound) and leave nothing behind.
describe.skipIf(skipWithout('postgres-server'))('a test PostgreSQL cluster that cannot start', () => {
  it('fails at once with the server log when postgres exits (a key that is not the certificate’s), leaving nothing', async () => {
    const before = ours();
    const ca = await generateTestCa();
    const cert = await generateCertificate({ commonName: 'localhost', altNames: ['127.0.0.1'], ca });
    const other = await generateCertificate({ commonName: 'localhost', altNames: ['127.0.0.1'], ca });
    const t0 = performance.now();
    const started = startPostgresServer({ tls: { cert: cert.cert, key: other.key } });
    await expect(started).rejects.toThrow(/postgres exited before it answered; its log: .*private key/is);
    expect(performance.now() - t0).toBeLessThan(60_000);
    expect(ours().filter((n) => !before.includes(n))).toEqual([]);
  });
});
