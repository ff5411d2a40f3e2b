import type { Command } from 'commander';
import { environmentVariable } from '../config/config.environment.ts';
import type { ConfigDocument } from '../modules/config-format/index.ts';
import type { CheckedDocument } from './config-files/config-document.check.ts';
import type { RemoteTarget } from './config-files/config-remote.ts';
import type { ConfigSource } from './config-files/config-source.read.ts';

// What the commands use is loaded when one runs (`await import`), not when the CLI starts: `tocsin config plan` then
// loads the document's reading and checking and no more of the application (bench/config: its no-change plan < 2 s).

/** What a document lists, for the line validate prints when all is well: `3 monitors, 1 destinations`. */
async function summary(document: ConfigDocument): Promise<string> {
  const { CONFIG_DOCUMENT_KINDS } = await import('../modules/config-format/index.ts');
  const parts = CONFIG_DOCUMENT_KINDS.filter((kind) => (document[kind]?.length ?? 0) > 0).map(
    (kind) => `${document[kind]!.length} ${kind.replace('_', ' ')}`,
  );
  return parts.length === 0 ? 'no items' : parts.join(', ');
}

function fail(message: string, code: number): never {
  process.stderr.write(`tocsin: ${message}\n`);
  process.exit(code);
}

async function sourcesOrExit(path: string): Promise<ConfigSource[]> {
  const { readConfigSources, SourceReadError } = await import('./config-files/config-source.read.ts');
  try {
    return readConfigSources(path);
  } catch (err) {
    if (!(err instanceof SourceReadError)) throw err;
    fail(err.message, 2);
  }
}

/** Reads and checks a document offline; prints every problem and exits 1 when there is one. */
async function checkedOrExit(sources: ConfigSource[]): Promise<CheckedDocument & { document: ConfigDocument }> {
  const { checkConfigSources, formatProblem } = await import('./config-files/config-document.check.ts');
  const checked = checkConfigSources(sources, environmentVariable);
  if (!checked.document) {
    for (const problem of checked.problems) process.stdout.write(`${formatProblem(problem)}\n`);
    const n = checked.problems.length;
    fail(`${n} problem${n === 1 ? '' : 's'}; nothing is valid`, 1);
  }
  return checked as CheckedDocument & { document: ConfigDocument };
}

function targetOrExit(opts: { url?: string; key?: string }): RemoteTarget {
  const url = opts.url ?? environmentVariable('TOCSIN_URL');
  const key = opts.key ?? environmentVariable('TOCSIN_API_KEY');
  if (!url) fail('give the server with --url or TOCSIN_URL (e.g. https://tocsin.example.com)', 2);
  if (!key) fail('give an API key with config:write in TOCSIN_API_KEY (or --key)', 2);
  return { url, key };
}

/** Plan or apply: the document checked offline first, then the server's answer, its refusals placed in the files. */
async function remote(action: 'plan' | 'apply', path: string, opts: { url?: string; key?: string; prune?: boolean }) {
  const target = targetOrExit(opts);
  const checked = await checkedOrExit(await sourcesOrExit(path));
  const [{ formatProblem }, { formatPlan, sendDocument }] = await Promise.all([
    import('./config-files/config-document.check.ts'),
    import('./config-files/config-remote.ts'),
  ]);
  let answer;
  try {
    answer = await sendDocument(target, action, {
      document: checked.document,
      prune: opts.prune ?? false,
      secret_fields: checked.secretFields,
    });
  } catch (err) {
    fail(`cannot reach ${target.url}: ${err instanceof Error ? err.message : String(err)}`, 1);
  }
  if (!answer.ok) {
    for (const detail of answer.details) {
      const place = checked.locate(detail.field, detail.issue);
      process.stdout.write(`${place.file ? formatProblem(place) : `${detail.field} ${detail.issue}`}\n`);
    }
    fail(
      `${action} refused (${answer.status} ${answer.code}): ${answer.message}${action === 'apply' ? ' Nothing was applied.' : ''}`,
      1,
    );
  }
  process.stdout.write(formatPlan(answer.plan));
  const { create, update, delete: deleted } = answer.plan.summary;
  // For CI: a plan with changes pending exits 2 (like `terraform plan -detailed-exitcode`).
  // exitCode, not exit(): a long plan written to a pipe is still being flushed, and exit() would cut it short (the
  // summary line last), as the benchmark of 1,000 monitors showed (bench/config).
  if (action === 'plan' && create + update + deleted > 0) process.exitCode = 2;
}

/**
 * `tocsin config …` (DECISIONS §19, docs/config-as-code.md). validate runs offline; plan and apply send the checked
 * document to a server. Exit codes: 0 done (plan: nothing to change), 1 problems or refused, 2 (plan) changes pending
 * or (validate) the path cannot be read.
 */
export function registerConfigCommands(program: Command): void {
  const config = program
    .command('config')
    .description('Configuration as code: validate, plan and apply a document (YAML or JSON, a file or a folder)');
  config
    .command('validate')
    .description('Check a document offline: every problem at once, as file:line:column: message')
    .argument('<path>', 'a .yaml/.yml/.json file, or a folder of them (merged)')
    .action(async (path: string) => {
      const sources = await sourcesOrExit(path);
      const { document } = await checkedOrExit(sources);
      process.stdout.write(
        `valid: ${await summary(document)} (${sources.length} file${sources.length === 1 ? '' : 's'})\n`,
      );
    });
  config
    .command('export')
    .description(
      'Write a live organization to files (one per kind) and put its records under management: export then plan shows nothing',
    )
    .argument('<dir>', 'the folder to write (created if missing; files of the same names are replaced)')
    .option('--url <url>', 'the Tocsin server (default: TOCSIN_URL)')
    .option('--key <key>', 'an API key with config:write (default: TOCSIN_API_KEY; prefer the variable)')
    .action(async (dir: string, opts: { url?: string; key?: string }) => {
      const target = targetOrExit(opts);
      const { exportOrganization, ExportError, writeDocument } = await import('./config-files/config-export.ts');
      let exported;
      try {
        exported = await exportOrganization(target);
      } catch (err) {
        if (err instanceof ExportError || err instanceof TypeError) fail(`export failed: ${err.message}`, 1);
        throw err;
      }
      const files = writeDocument(dir, exported.document, exported.secrets);
      const response = await fetch(
        new URL('/api/v1/config/adopt', target.url.endsWith('/') ? target.url : `${target.url}/`),
        {
          method: 'POST',
          headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            document: exported.document,
            items: exported.records.map((r) => ({ kind: r.kind, key: r.key, item_id: r.itemId })),
            secret_fields: exported.secrets.map((s) => s.field),
          }),
        },
      );
      if (!response.ok)
        fail(
          `wrote ${files.length} files but could not put the records under management: ${response.status} ${await response.text()}`,
          1,
        );
      for (const file of files) process.stdout.write(`wrote ${file}\n`);
      const adopted = exported.records.filter((r) => !r.managed).length;
      process.stdout.write(`${adopted} record${adopted === 1 ? '' : 's'} now managed by these files.\n`);
      if (exported.secrets.length > 0)
        process.stdout.write(
          `Set before plan or apply (the API never shows secrets): ${[...new Set(exported.secrets.map((s) => s.variable))].join(', ')}\n`,
        );
    });
  for (const action of ['plan', 'apply'] as const) {
    config
      .command(action)
      .description(
        action === 'plan'
          ? 'Show what apply would change on the server (exit 2 when changes are pending)'
          : 'Apply the document on the server in one transaction (all or nothing)',
      )
      .argument('<path>', 'a .yaml/.yml/.json file, or a folder of them (merged)')
      .option('--url <url>', 'the Tocsin server (default: TOCSIN_URL)')
      .option('--key <key>', 'an API key with config:write (default: TOCSIN_API_KEY; prefer the variable)')
      .option('--prune', 'delete managed items the document no longer lists')
      .action((path: string, opts: { url?: string; key?: string; prune?: boolean }) => remote(action, path, opts));
  }
}
