import type { Command } from 'commander';
import { createTocsin } from '../main.ts';
import { configOrExit } from './cli.config.ts';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the API, web app, status pages, scheduler and alert workers in this process')
    .option('--port <port>', 'port to listen on (default: PORT or 3000)')
    .option('--host <host>', 'address to bind (default: HOST or 0.0.0.0)')
    .action(async (opts: { port?: string; host?: string }) => {
      const config = configOrExit();
      if (opts.port !== undefined) config.port = Number(opts.port);
      if (opts.host !== undefined) config.host = opts.host;
      const startedAt = performance.now();
      const tocsin = await createTocsin(config);
      const address = await tocsin.app.listen({ port: config.port, host: config.host });
      await tocsin.startBackground();
      const storage = config.databaseUrl ? 'PostgreSQL' : `SQLite at ${config.dataDir}/tocsin.db`;
      // Where this process listens and where users reach the service are different things behind a proxy, or
      // for a second process on another port: both are printed, each for what it is.
      tocsin.logger.info(
        { address, publicUrl: config.publicUrl, storage, readyMs: Math.round(performance.now() - startedAt) },
        `Tocsin ready: listening on ${address}; public URL ${config.publicUrl} (storage: ${storage}). ` +
          'Create an organization and an API key with: npx tocsin admin bootstrap --org "My org" --email you@example.com --plan team',
      );

      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        tocsin.logger.info({ signal }, 'shutting down: no new requests, finishing in-flight work');
        const force = setTimeout(() => {
          tocsin.logger.error('shutdown took over 25 s; exiting');
          process.exit(1);
        }, 25_000);
        force.unref();
        tocsin
          .close()
          .then(() => {
            tocsin.logger.info('stopped');
            process.exit(0);
          })
          .catch((err: unknown) => {
            tocsin.logger.error({ err }, 'error while shutting down');
            process.exit(1);
          });
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
}
