import { describe, expect, it } from 'vitest';
import {
  accountingOf,
  combinedAccounting,
  spansOf,
  withMaintenance,
  type TimelineEntry,
} from './availability.accounting.ts';

const e = (kind: TimelineEntry['kind'], at: number, since: number | null = null): TimelineEntry => ({
  kind,
  at,
  since,
});

describe('availability accounting', () => {
  it('splits time into absent, no data, up, down and paused; the states sum to the window', () => {
    const spans = spansOf(
      [
        e('created', 100),
        e('up', 110),
        e('down', 300, 250),
        e('up', 400),
        e('paused', 500),
        e('resumed', 600),
        e('up', 620),
        e('deleted', 900),
      ],
      1000,
    );
    // absent [0,100) and [900,1000); no data [100,110) and [600,620); up [110,250) [400,500) [620,900);
    // down [250,400) (dated back from the verdict at 300 to the first failure at 250); paused [500,600).
    expect(accountingOf(spans, 0, 1000)).toEqual({
      windowMs: 1000,
      upMs: 140 + 100 + 280,
      degradedMs: 0,
      downMs: 150,
      pausedMs: 100,
      noDataMs: 30,
      maintenanceMs: 0,
      absentMs: 200,
    });
  });

  it('degraded time is up time, counted apart; a down dated back into it takes it; maintenance over it takes it', () => {
    const spans = spansOf(
      [
        e('created', 0),
        e('up', 0),
        e('degraded', 100),
        e('up', 200),
        e('degraded', 300),
        e('down', 400, 350),
        e('degraded', 500),
        e('up', 600),
      ],
      700,
    );
    // up [0,100) [200,300) [600,700); degraded [100,200) [300,350) [500,600); down [350,500).
    expect(accountingOf(spans, 0, 700)).toMatchObject({ upMs: 550, degradedMs: 250, downMs: 150 });
    expect(accountingOf(spans, 150, 320)).toMatchObject({ upMs: 170, degradedMs: 70, downMs: 0 });
    // Maintenance [120, 180) and [550, 650): 60 + 50 of degraded time and 50 of up time are neither.
    const quiet = withMaintenance(spans, [
      [120, 180],
      [550, 650],
    ]);
    expect(accountingOf(quiet, 0, 700)).toMatchObject({
      upMs: 550 - 60 - 100,
      degradedMs: 250 - 60 - 50,
      maintenanceMs: 160,
    });
  });

  it('a down dated back never reaches across a resume (the run restarts after it)', () => {
    const spans = spansOf([e('created', 0), e('up', 0), e('paused', 100), e('resumed', 200), e('down', 260, 150)], 300);
    const a = accountingOf(spans, 0, 300);
    expect(a.pausedMs).toBe(100);
    expect(a.downMs).toBe(100); // [200, 300): the no-data time after the resume and the outage from 260
    expect(a.noDataMs).toBe(0);
  });

  it('several monitors: down is the union of their downtime, monitored the union of their monitored time', () => {
    const a = spansOf([e('created', 0), e('up', 0), e('down', 20, 10), e('up', 40)], 100);
    const b = spansOf([e('created', 0), e('up', 0), e('down', 35, 30), e('up', 60)], 100);
    // a down [10, 40), b down [30, 60): overlapping, union [10, 60) = 50, not 30 + 30.
    expect(combinedAccounting([a, b], 0, 100)).toEqual({ monitoredMs: 100, downMs: 50 });
    // A monitor created later adds no monitored time before its creation.
    const late = spansOf([e('created', 50), e('up', 50)], 100);
    expect(combinedAccounting([late], 0, 100)).toEqual({ monitoredMs: 50, downMs: 0 });
  });

  it('a timeline read from inside a window may start at a pause or a resume: the monitor exists', () => {
    const paused = accountingOf(spansOf([e('up', 0), e('paused', 10)], 100), 50, 100);
    expect(paused).toMatchObject({ pausedMs: 50, absentMs: 0 });
    const resumed = accountingOf(spansOf([e('resumed', 10), e('up', 60)], 100), 50, 100);
    expect(resumed).toMatchObject({ noDataMs: 10, upMs: 40, absentMs: 0 });
  });
});
