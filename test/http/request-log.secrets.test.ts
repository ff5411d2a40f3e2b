import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

/**
 * A credential pasted into a URL never reaches the log: not under a parameter name the redaction knows in
 * another spelling (`api_key[]`), and not Tocsin's own secrets (API keys, runner tokens, signing secrets)
 * wherever they are pasted (another parameter, a path segment).
 */
describe('request log and pasted credentials', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const apiKey = `tsk_${'A1b2C3d4'.repeat(4)}Zz9Yy8`;
  const runnerToken = 'trn_fce_ovgTaIA1sBW7-OaSY7OalPO8OwJZ';
  const signingSecret = 'whsec_xxy7Xp0ZZ/ic8pJfbKr97jdVQfXQWdxYO4m0A2JR5og=';

  async function loggedUrl(url: string): Promise<string> {
    const res = await t.tocsin.app.inject({ method: 'GET', url });
    const id = String(res.headers['x-request-id']);
    const line = t.logs.lines.find((l) => l.includes(id) && /"msg":"request( failed)?"/.test(l));
    expect(line, `no request line for ${url}`).toBeDefined();
    return JSON.parse(line!).url as string;
  }

  it.each([
    [`/api/v1/monitors?api_key[]=${apiKey}`, '/api/v1/monitors?api_key[]=[redacted]'],
    [`/api/v1/monitors?api_key%5B%5D=s3cretValue`, '/api/v1/monitors?api_key%5B%5D=[redacted]'],
    [`/api/v1/monitors?q=${apiKey}&limit=5`, '/api/v1/monitors?q=tsk_[redacted]&limit=5'],
    [`/api/v1/monitors/${apiKey}`, '/api/v1/monitors/tsk_[redacted]'],
    [`/api/v1/monitors?note=${runnerToken}`, '/api/v1/monitors?note=trn_[redacted]'],
    [`/api/v1/monitors?note=${encodeURIComponent(signingSecret)}`, '/api/v1/monitors?note=whsec_[redacted]'],
  ])('%s is logged as %s', async (url, logged) => {
    expect(await loggedUrl(url)).toBe(logged);
  });

  it('keeps the short prefix a key is shown by, and other values', async () => {
    expect(await loggedUrl('/api/v1/monitors?tag=tsk_MK44&limit=5')).toBe('/api/v1/monitors?tag=tsk_MK44&limit=5');
  });
});
