import { DomainError } from '../platform/errors.ts';
import { buildProgram } from './cli.program.ts';

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  const details = err instanceof DomainError && err.details ? ` ${JSON.stringify(err.details)}` : '';
  process.stderr.write(`tocsin: ${(err as Error).message}${details}\n`);
  process.exitCode = process.exitCode || 1;
}
