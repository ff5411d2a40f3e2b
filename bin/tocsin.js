#!/usr/bin/env node
// Node 24 runs the TypeScript sources directly (type stripping), so there is no build step.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /Type Stripping/i.test(warning.message)) return;
  process.stderr.write(`${warning.name}: ${warning.message}\n`);
});
await import('../src/cli/cli.main.ts');
