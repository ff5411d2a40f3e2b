import { DomainError } from '../platform/errors.ts';
import { DatabaseStartupError } from '../platform/db/database.errors.ts';
import { redactText } from '../platform/redact.ts';
import { buildProgram } from './cli.program.ts';

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  const details = err instanceof DomainError && err.details ? ` ${JSON.stringify(err.details)}` : '';
  process.stderr.write(`tocsin: ${redactText((err as Error).message)}${details}\n`);
  // Exit 2 for what the operator must fix in the configuration or environment (as configOrExit does), 1 otherwise.
  const configuration = err instanceof DatabaseStartupError && err.isConfigurationFailure;
  process.exitCode = process.exitCode || (configuration ? 2 : 1);
}
