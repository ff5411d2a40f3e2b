import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import boundaries from '../../tools/eslint/module-boundaries.js';

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
  ],
});
