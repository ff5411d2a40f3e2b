import { describe, expect, it } from 'vitest';
import { REDACTED, redactText, redactUrl } from './redact.ts';

describe('redactUrl', () => {
  it('keeps the user and removes the password of a URL', () => {
    expect(redactUrl('postgres://app:s3cr@t@db.local:5432/tocsin')).toBe(
      `postgres://app:${REDACTED}@db.local:5432/tocsin`,
    );
  });

  it('removes a bare userinfo (a token used as user name)', () => {
    expect(redactUrl('https://ghp_abc@github.com/x')).toBe(`https://${REDACTED}@github.com/x`);
  });

  it('removes the values of secret query parameters, whatever their case, and keeps the others', () => {
    expect(
      redactUrl(
        '/api/v1/x?limit=10&api_key=a&Token=b&APIKEY=c&secret=d&password=e&signature=f&sig=g&access_token=h&key=i',
      ),
    ).toBe(
      `/api/v1/x?limit=10&api_key=${REDACTED}&Token=${REDACTED}&APIKEY=${REDACTED}&secret=${REDACTED}` +
        `&password=${REDACTED}&signature=${REDACTED}&sig=${REDACTED}&access_token=${REDACTED}&key=${REDACTED}`,
    );
  });

  it('recognises prefixed and percent-encoded names', () => {
    expect(redactUrl('/x?x-api-key=1&client_secret=2&api%5Fkey=3#top')).toBe(
      `/x?x-api-key=${REDACTED}&client_secret=${REDACTED}&api%5Fkey=${REDACTED}#top`,
    );
  });

  it('leaves a URL without credentials as it is', () => {
    expect(redactUrl('/api/v1/monitors?status=down&limit=5')).toBe('/api/v1/monitors?status=down&limit=5');
    expect(redactUrl('/api/v1/monitors')).toBe('/api/v1/monitors');
  });
});

describe('redactText', () => {
  it('redacts every URL inside a message or a JSON log line', () => {
    expect(redactText('configuration DATABASE_URL: bad (got "postgresql://u:pw@h/db")')).toBe(
      `configuration DATABASE_URL: bad (got "postgresql://u:${REDACTED}@h/db")`,
    );
    expect(redactText('{"url":"https://h/hook?token=abc&x=1","msg":"sent"}')).toBe(
      `{"url":"https://h/hook?token=${REDACTED}&x=1","msg":"sent"}`,
    );
  });
});
