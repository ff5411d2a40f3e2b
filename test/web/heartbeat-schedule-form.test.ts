import { describe, expect, it } from 'vitest';
import {
  configOfScheduleForm,
  durationInWords,
  scheduleFormOf as formOf,
} from '../../web/src/lib/heartbeat-schedule-form.ts';

const scheduleFormOf = (draft: Record<string, unknown>) => formOf(draft, 'UTC');

describe("a heartbeat monitor's schedule form", () => {
  it('starts from a stored schedule in the largest unit that divides it', () => {
    const form = scheduleFormOf({ schedule: '{"every_seconds":5400}', grace_seconds: '7200' });
    expect(form).toMatchObject({ mode: 'every', n: '90', unit: 60, graceN: '2', graceUnit: 3600 });
    expect(configOfScheduleForm(form)).toEqual({ schedule: { every_seconds: 5400 }, grace: 7200 });
    expect(scheduleFormOf({ schedule: '{"every_seconds":86400}' })).toMatchObject({ n: '1', unit: 86_400 });
    expect(scheduleFormOf({ schedule: '{"every_seconds":61}' })).toMatchObject({ n: '61', unit: 1 });
  });

  it('starts from a cron and its zone', () => {
    const form = scheduleFormOf({ schedule: '{"cron":"30 2 * * 1-5","timezone":"Europe/Berlin"}' });
    expect(form).toMatchObject({ mode: 'cron', cron: '30 2 * * 1-5', timezone: 'Europe/Berlin', graceN: '' });
    expect(configOfScheduleForm(form)).toEqual({
      schedule: { cron: '30 2 * * 1-5', timezone: 'Europe/Berlin' },
      grace: null,
    });
  });

  it('sends no schedule when none is typed, and what is not a number as typed (for the API to name)', () => {
    const empty = scheduleFormOf({});
    expect(empty).toMatchObject({ mode: 'every', n: '', unit: 60 });
    expect(configOfScheduleForm(empty)).toEqual({ schedule: null, grace: null });
    expect(configOfScheduleForm({ ...empty, n: 'often', graceN: '1.5', graceUnit: 60 })).toEqual({
      schedule: { every_seconds: 'often' },
      grace: 90,
    });
    expect(configOfScheduleForm({ ...empty, mode: 'cron', cron: ' ' }).schedule).toBeNull();
  });

  it('says a grace in words', () => {
    expect([0, 60, 900, 3600, 61, 172_800].map(durationInWords)).toEqual([
      '0 seconds',
      '1 minute',
      '15 minutes',
      '1 hour',
      '61 seconds',
      '2 days',
    ]);
  });
});
