import { describe, expect, it } from 'vitest';
import type { ServiceContext } from '../auth/index.ts';
import { reportRendering, type ReportRendererLike } from './scheduled-report.rendering.ts';

const ctx = {} as ServiceContext;
const file = (kind: string) => ({ contentType: kind, filename: `r.${kind}`, body: Buffer.from(kind) });

describe('reportRendering', () => {
  it('a run asks for its report once, in every kind of file, and takes its summary from that build', async () => {
    const asked: Array<readonly string[]> = [];
    const renderer: ReportRendererLike = {
      files: async (_ctx, _kind, _input, formats) => {
        asked.push(formats);
        return {
          files: { json: file('json'), csv: file('csv'), pdf: file('pdf') },
          period: { from: '2026-11-01T00:00:00.000Z', to: '2026-11-02T00:00:00.000Z', timezone: 'UTC' },
          summary: { monitors: 3 },
        };
      },
    };
    const period = {
      from: Date.parse('2026-11-01T00:00:00Z'),
      to: Date.parse('2026-11-02T00:00:00Z'),
      timezone: 'UTC',
    };
    const run = await reportRendering(renderer, null).render(ctx, 'availability', period, ['json', 'csv', 'pdf']);
    expect(asked).toEqual([['json', 'csv', 'pdf']]);
    expect(Object.keys(run.files)).toEqual(['json', 'csv', 'pdf']);
    expect(run.summary).toEqual({ monitors: 3 });
    expect(run.period).toEqual(period);
  });

  it('a custom report’s run takes its period from the document built, and is null when the report is gone', async () => {
    const renderer: ReportRendererLike = { files: async () => Promise.reject(new Error('not used')) };
    let builds = 0;
    const rendering = reportRendering(renderer, {
      get: async () => ({}),
      hiddenFrom: async () => new Set(),
      files: async (_ctx, id) => {
        builds += 1;
        if (id === 'crp_gone') {
          const { DomainError } = await import('../../platform/errors.ts');
          throw new DomainError('not_found', 'Custom report not found.');
        }
        return {
          files: { json: file('json'), csv: file('csv'), pdf: file('pdf') },
          period: { from: '2026-10-01T00:00:00.000Z', to: '2026-11-01T00:00:00.000Z', timezone: 'Europe/Berlin' },
          summary: { sections: 2 },
        };
      },
    });
    const run = await rendering.renderCustom(ctx, 'crp_1', ['json', 'csv', 'pdf']);
    expect(builds).toBe(1);
    expect(run!.period).toEqual({
      from: Date.parse('2026-10-01T00:00:00Z'),
      to: Date.parse('2026-11-01T00:00:00Z'),
      timezone: 'Europe/Berlin',
    });
    expect(run!.summary).toEqual({ sections: 2 });
    expect(await rendering.renderCustom(ctx, 'crp_gone', ['json'])).toBeNull();
  });
});
