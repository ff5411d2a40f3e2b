/**
 * The rule that keeps every outbound connection on platform/net's connector: what it refuses in src/modules, and
 * that the project's ESLint configuration really applies it there (and not to platform/net itself).
 */
import path from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { restrictedGlobals, restrictedImports, restrictedSyntax } from '../../tools/eslint/outbound-connections.js';

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' },
});
const importsRule = (tseslint.plugin as unknown as { rules: Record<string, unknown> }).rules['no-restricted-imports'];

tester.run('outbound imports', importsRule as never, {
  valid: [
    { code: "import type { IncomingHttpHeaders } from 'node:http';", options: [{ paths: restrictedImports }] },
    { code: "import { isIP, type Socket } from 'node:net';", options: [{ paths: restrictedImports }] },
    { code: "import { checkServerIdentity } from 'node:tls';", options: [{ paths: restrictedImports }] },
    { code: "import { Resolver } from 'node:dns/promises';", options: [{ paths: restrictedImports }] },
  ],
  invalid: [
    "import { request } from 'node:https';",
    "import { get } from 'node:http';",
    "import { connect } from 'node:net';",
    "import { createConnection } from 'net';",
    "import { connect as tlsConnect } from 'node:tls';",
    "import * as tls from 'node:tls';",
    "import { lookup } from 'node:dns/promises';",
    "import { connect } from 'node:http2';",
    "import { fetch, Agent } from 'undici';",
  ].map((code) => ({ code, options: [{ paths: restrictedImports }], errors: 1 })),
});

tester.run('outbound calls', (await import('eslint/use-at-your-own-risk')).builtinRules.get('no-restricted-syntax')!, {
  valid: [{ code: 'ctx.fetch(url); connector.connectTls(h, p, {});', options: restrictedSyntax }],
  invalid: [
    { code: 'tls.connect({ host, port });', options: restrictedSyntax, errors: 1 },
    { code: "https.request('https://x/');", options: restrictedSyntax, errors: 1 },
    { code: 'net.createConnection(80, host);', options: restrictedSyntax, errors: 1 },
    { code: 'const f = globalThis.fetch;', options: restrictedSyntax, errors: 1 },
  ],
});

tester.run(
  'outbound globals',
  (await import('eslint/use-at-your-own-risk')).builtinRules.get('no-restricted-globals')!,
  {
    valid: [{ code: 'input.fetch(url);', options: restrictedGlobals }],
    invalid: [
      { code: "await fetch('https://x/');", options: restrictedGlobals, errors: 1 },
      { code: 'const f = options.fetch ?? fetch;', options: restrictedGlobals, errors: 1 },
    ],
  },
);

describe('the project configuration', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const config = (file: string) => eslint.calculateConfigForFile(path.join(process.cwd(), file));

  it('applies the rule to production code under src/modules', async () => {
    const rules = ((await config('src/modules/intelligence/security.measure.ts')) as { rules: Record<string, unknown> })
      .rules;
    expect(rules['@typescript-eslint/no-restricted-imports']).toEqual([2, { paths: restrictedImports }]);
    expect(rules['no-restricted-globals']).toEqual([2, ...restrictedGlobals]);
    expect(rules['no-restricted-syntax']).toEqual(expect.arrayContaining(restrictedSyntax));
  });

  it('no production file under src/modules opens a connection itself today', async () => {
    // The three rules alone, without type information: quick enough to run over every module file.
    const only = new ESLint({
      cwd: process.cwd(),
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          linterOptions: { reportUnusedDisableDirectives: 'off' },
          languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' },
          plugins: { '@typescript-eslint': tseslint.plugin as never },
          rules: {
            '@typescript-eslint/no-restricted-imports': ['error', { paths: restrictedImports }],
            'no-restricted-syntax': ['error', ...restrictedSyntax],
            'no-restricted-globals': ['error', ...restrictedGlobals],
          },
        },
      ],
      ignorePatterns: ['src/**/*.test.ts'],
    });
    const results = await only.lintFiles(['src/modules/**/*.ts']);
    expect(results.length).toBeGreaterThan(100);
    const problems = results.flatMap((r) =>
      r.messages.map((m) => `${path.relative(process.cwd(), r.filePath)}:${m.line} ${m.message}`),
    );
    expect(problems).toEqual([]);
  }, 60_000);

  it('leaves the connector itself (platform/net) and tests free to connect', async () => {
    for (const file of ['src/platform/net/outbound.connector.ts', 'src/modules/alerting/webhook.rebinding.test.ts']) {
      const rules = ((await config(file)) as { rules: Record<string, unknown> }).rules;
      expect(rules['@typescript-eslint/no-restricted-imports']).toBeUndefined();
    }
  });
});
