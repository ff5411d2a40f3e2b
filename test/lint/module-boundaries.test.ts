import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import boundaries from '../../tools/eslint/module-boundaries.js';
import { MODULE_GRAPH } from '../../tools/eslint/module-graph.js';

RuleTester.describe = describe;
RuleTester.it = it;

const src = (file: string) => path.join(process.cwd(), 'src', file);
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' },
});

tester.run('module-boundaries', boundaries.rules['module-boundaries'], {
  valid: [
    {
      filename: src('http/routes/monitors/monitors.routes.ts'),
      code: "import { MonitorsService } from '../../../modules/monitors/index.ts';",
    },
    { filename: src('modules/monitors/monitor.service.ts'), code: "import { x } from './monitor.validation.ts';" },
    { filename: src('modules/monitors/monitor.service.ts'), code: "import type { Actor } from '../auth/index.ts';" },
    {
      filename: src('modules/checks/engine/check.engine.ts'),
      code: "import { y } from '../scheduler/schedule.repository.ts';",
    },
    { filename: src('modules/monitors/monitor.service.ts'), code: "import { Clock } from '../../platform/clock.ts';" },
    { filename: src('main.ts'), code: "import { createAlerting } from './modules/alerting/index.ts';" },
    { filename: src('platform/db/database.ts'), code: "import pg from 'pg';" },
    // An edge of the declared graph, relative or through the package's #src/ specifier.
    { filename: src('modules/auth/auth.service.ts'), code: "import { OrgAccessColumns } from '../orgs/index.ts';" },
    { filename: src('modules/auth/auth.service.ts'), code: "import { Plans } from '#src/modules/orgs/index.ts';" },
    {
      filename: src('modules/alerting/pipeline/pipeline.ts'),
      code: "import type { X } from '#src/platform/mail/index.ts';",
    },
    { filename: src('http/app.ts'), code: "import { createAlerting } from '#src/modules/alerting/index.ts';" },
  ],
  invalid: [
    {
      filename: src('http/routes/monitors/monitors.routes.ts'),
      code: "import { MonitorsRepository } from '../../../modules/monitors/monitors.repository.ts';",
      errors: [{ messageId: 'internals' }],
    },
    {
      filename: src('modules/incidents/incident.service.ts'),
      code: "import { MonitorsRepository } from '../monitors/monitors.repository.ts';",
      errors: [{ messageId: 'internals' }],
    },
    {
      filename: src('main.ts'),
      code: "export { RollupsService } from './modules/checks/rollups/index.ts';",
      errors: [{ messageId: 'internals' }],
    },
    {
      filename: src('modules/monitors/monitor.service.ts'),
      code: "import { buildApp } from '../../http/app.ts';",
      errors: [{ messageId: 'direction' }],
    },
    {
      filename: src('platform/db/database.ts'),
      code: "import { Plans } from '../../modules/orgs/index.ts';",
      errors: [{ messageId: 'direction' }],
    },
    {
      filename: src('modules/alerting/alerting.module.ts'),
      code: "const m = await import('../../cli/cli.main.ts');",
      errors: [{ messageId: 'direction' }],
    },
    // Outside the declared graph, even through index.ts: orgs sits below auth, monitors does not know alerting.
    {
      filename: src('modules/orgs/members.service.ts'),
      code: "import { isAdmin } from '../auth/index.ts';",
      errors: [{ messageId: 'graph' }],
    },
    {
      filename: src('modules/monitors/monitor.service.ts'),
      code: "import type { Alerting } from '#src/modules/alerting/index.ts';",
      errors: [{ messageId: 'graph' }],
    },
    {
      filename: src('modules/events/events.service.ts'),
      code: "export { AuditLog } from '../audit/index.ts';",
      errors: [{ messageId: 'graph' }],
    },
    // A #src/ specifier into another module's internals.
    {
      filename: src('modules/alerting/pipeline/pipeline.ts'),
      code: "import { EventsRepository } from '#src/modules/events/events.repository.ts';",
      errors: [{ messageId: 'internals' }],
    },
    {
      filename: src('http/routes/monitors/monitors.routes.ts'),
      code: "import { MonitorsRepository } from '#src/modules/monitors/monitors.repository.ts';",
      errors: [{ messageId: 'internals' }],
    },
    {
      filename: src('platform/db/database.ts'),
      code: "import { Plans } from '#src/modules/orgs/index.ts';",
      errors: [{ messageId: 'direction' }],
    },
    // A module the graph does not declare imports nothing of other modules until it is declared.
    {
      filename: src('modules/newcomer/newcomer.service.ts'),
      code: "import { Plans } from '../orgs/index.ts';",
      errors: [{ messageId: 'undeclared' }],
    },
  ],
});

describe('the declared module graph (tools/eslint/module-graph.js)', () => {
  it('declares every module folder of src/modules, and no other', () => {
    const folders = readdirSync(path.join(process.cwd(), 'src', 'modules'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(Object.keys(MODULE_GRAPH).sort()).toEqual(folders);
    for (const [module, deps] of Object.entries(MODULE_GRAPH))
      for (const dep of deps) expect(folders, `${module} → ${dep}`).toContain(dep);
  });

  it('has no cycle', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (module: string, trail: string[]): void => {
      if (state.get(module) === 'done') return;
      if (state.get(module) === 'visiting') throw new Error(`cycle: ${[...trail, module].join(' → ')}`);
      state.set(module, 'visiting');
      for (const dep of MODULE_GRAPH[module] ?? []) visit(dep, [...trail, module]);
      state.set(module, 'done');
    };
    for (const module of Object.keys(MODULE_GRAPH)) visit(module, []);
  });

  it('is the graph docs/architecture.md shows', () => {
    const doc = readFileSync(path.join(process.cwd(), 'docs', 'architecture.md'), 'utf8');
    const block = /### The module graph[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const shown = Object.fromEntries(
      block
        .trim()
        .split('\n')
        .map((line) => {
          const [module, deps] = line.split('→').map((part) => part.trim());
          return [module!, deps === '—' ? [] : deps!.split(',').map((d) => d.trim())];
        }),
    );
    expect(shown).toEqual(MODULE_GRAPH);
  });
});
