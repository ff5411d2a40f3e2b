import { describe, expect, it } from 'vitest';
import { everyInWords, heartbeatSnippets, scheduleInWords } from '../../web/src/lib/heartbeat-schedule.ts';

describe('heartbeat schedule in words', () => {
  it.each([
    [{ every_seconds: 300 }, 60, 'every 5 minutes'],
    [{ every_seconds: 3600 }, 60, 'every hour'],
    [{ every_seconds: 90 }, 60, 'every 90 seconds'],
    [{ cron: '30 2 * * *', timezone: 'Europe/Paris' }, 60, 'at 02:30 every day (Europe/Paris)'],
    [{ cron: '*/15 * * * *' }, 60, 'every 15 minutes (UTC)'],
    [{ cron: '@hourly', timezone: 'UTC' }, 60, 'every hour (UTC)'],
    [{ cron: '0 9 * * 1', timezone: 'Europe/Berlin' }, 60, 'at 09:00 every Monday (Europe/Berlin)'],
    [{ cron: '0 9 * * 1-5', timezone: 'UTC' }, 60, 'at 09:00 every weekday (UTC)'],
    [{ cron: '0 4 1 * *', timezone: 'UTC' }, 60, 'at 04:00 on day 1 of every month (UTC)'],
    [{ cron: '0 4 1,15 * *', timezone: 'UTC' }, 60, 'on cron "0 4 1,15 * *" (UTC)'],
    [null, 86_400, 'every day'],
  ])('%j → %s', (schedule, interval, words) => {
    expect(scheduleInWords(schedule, interval)).toBe(words);
  });

  it('names units only when they divide', () => {
    expect(everyInWords(7200)).toBe('every 2 hours');
    expect(everyInWords(61)).toBe('every 61 seconds');
  });

  it('writes snippets with the start, success and fail URLs', () => {
    const [curl, crontab, systemd] = heartbeatSnippets('https://t.example/api/v1/heartbeats/abc');
    expect(curl!.text).toContain('https://t.example/api/v1/heartbeats/abc');
    expect(crontab!.text).toMatch(/abc\/start && .* && curl .*abc \|\| curl .*abc\/fail$/);
    expect(systemd!.text).toContain(
      'ExecStartPre=-/usr/bin/curl -fsS -m 10 -o /dev/null https://t.example/api/v1/heartbeats/abc/start',
    );
    expect(systemd!.text).toContain('ExecStopPost=');
  });
});
