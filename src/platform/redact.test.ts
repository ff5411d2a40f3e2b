import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from './logger.ts';
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

describe('redaction replaces the secret value only', () => {
  it('keeps what follows a token in a JSON-escaped text (a logged mail body)', () => {
    const line = JSON.stringify({
      msg: 'mail',
      text: 'Confirm:\n\nhttps://t.example/verify-email?token=abc123\n\nThe link is valid for 7 days.',
    });
    const out = redactText(line);
    expect(out).toBe(line.replace('token=abc123', `token=${REDACTED}`));
    expect(JSON.parse(out).text).toBe(
      `Confirm:\n\nhttps://t.example/verify-email?token=${REDACTED}\n\nThe link is valid for 7 days.`,
    );
  });

  it('a mail written to the log keeps its text after the redacted token', () => {
    let written = '';
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        written += chunk.toString('utf8');
        done();
      },
    });
    const logger = createLogger({ level: 'info', pretty: false, destination });
    const text =
      'Confirm your email address:\n\nhttps://t.example/verify-email?token=tok123\n\nThe link is valid for 7 days.';
    logger.info({ to: 'a@example.com', text }, 'email (SMTP not configured)');
    const line = JSON.parse(written) as { text: string };
    expect(line.text).toBe(text.replace('token=tok123', `token=${REDACTED}`));
  });

  it('keeps the escaped quote or tab that ends a value, so a JSON line stays JSON', () => {
    const line = JSON.stringify({ msg: 'x', text: 'see "https://h/?token=abc" and\t/?key=def\tend' });
    const out = redactText(line);
    expect(JSON.parse(out).text).toBe(`see "https://h/?token=${REDACTED}" and\t/?key=${REDACTED}\tend`);
  });

  it('stops at characters a query value cannot hold unencoded', () => {
    expect(redactText('/x?token=abc`|{y}')).toBe(`/x?token=${REDACTED}\`|{y}`);
    expect(redactText('[/x?token=abc]')).toBe(`[/x?token=${REDACTED}]`);
  });
});

describe('credential parameter names', () => {
  it('redacts session, jwt, bearer, auth, authorization, code, client_secret and refresh_token', () => {
    const names = ['session', 'jwt', 'bearer', 'auth', 'authorization', 'code', 'client_secret', 'refresh_token'];
    for (const name of names) {
      expect(redactUrl(`https://h/cb?state=s1&${name}=v4lue&x=1`)).toBe(
        `https://h/cb?state=s1&${name}=${REDACTED}&x=1`,
      );
      expect(redactUrl(`/cb?${name.toUpperCase()}=v4lue`)).toBe(`/cb?${name.toUpperCase()}=${REDACTED}`);
    }
  });

  it('leaves names that only contain those words alone', () => {
    expect(redactUrl('/x?session_count=3&codec=h264&author=ann')).toBe('/x?session_count=3&codec=h264&author=ann');
  });
});
