import { buildProgram } from './cli.program.ts';

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`tocsin: ${(err as Error).message}\n`);
  process.exitCode = process.exitCode || 1;
}
