import { Command } from 'commander';
import { registerAdminCommands } from './admin.command.ts';
import { registerBackupCommand } from './backup.command.ts';
import { registerConfigCommands } from './config.command.ts';
import { registerDemoCommand } from './demo.command.ts';
import { registerKeysCommands } from './keys.command.ts';
import { registerMigrateCommand } from './migrate.command.ts';
import { registerRunnerCommand } from './runner.command.ts';
import { registerRunnerTokenCommands } from './runner-token.command.ts';
import { registerServeCommand } from './serve.command.ts';
import { VERSION } from '../version.ts';

export function buildProgram(): Command {
  const program = new Command('tocsin')
    .description('Tocsin: monitoring, alerting and reporting')
    .version(VERSION)
    .showHelpAfterError();
  registerServeCommand(program);
  registerMigrateCommand(program);
  registerBackupCommand(program);
  registerAdminCommands(program);
  registerDemoCommand(program);
  registerKeysCommands(program);
  registerRunnerCommand(program);
  registerConfigCommands(program);
  registerRunnerTokenCommands(program.commands.find((c) => c.name() === 'admin')!);
  return program;
}
