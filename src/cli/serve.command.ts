import type { Command } from 'commander';
import type { Tocsin } from '../main.ts';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the API, web app, status pages, scheduler and alert workers in this process')
    .option('--port <port>', 'port to listen on (default: PORT or 3000)')
    .option('--host <host>', 'address to bind (default: HOST or 0.0.0.0)')
    .action(async (opts: { port?: string; host?: string }) => {
      const [{ createTocsin }, { configOrExit }] = await Promise.all([import('../main.ts'), import('./cli.config.ts')]);
      const config = configOrExit();
      if (opts.port !== undefined) config.port = Number(opts.port);
      if (opts.host !== undefined) config.host = opts.host;
      const startedAt = performance.now();
      // The signal handlers are in place before anything starts, so a SIGTERM during start-up (migrations, opening
      // the port) is a clean shutdown once that step settles, instead of killing the process mid-way.
      let tocsin: Tocsin | null = null;
      let starting: Promise<unknown> = Promise.resolve();
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        const force = setTimeout(() => {
          process.stderr.write('tocsin: shutdown took over 25 s; exiting\n');
          process.exit(1);
        }, 25_000);
        force.unref();
        void starting
          .catch(() => undefined)
          .then(async () => {
            // Start-up failed: its error ends the process on its own path.
            if (!tocsin) return;
            tocsin.logger.info({ signal }, 'shutting down: no new requests, finishing in-flight work');
            try {
              await tocsin.close();
              tocsin.logger.info('stopped');
              process.exit(0);
            } catch (err) {
              tocsin.logger.error({ err }, 'error while shutting down');
              process.exit(1);
            }
          });
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));

      const created = createTocsin(config);
      starting = created;
      const service = await created;
      tocsin = service;
      if (stopping) return;
      // Background roles start before the port opens, so a 200 from /readyz means checks and alerting run too.
      const listening = (async () => {
        await service.startBackground();
        return service.app.listen({ port: config.port, host: config.host });
      })();
      starting = listening;
      let address: string;
      try {
        address = await listening;
      } catch (err) {
        // The port could not be opened (in use, not permitted): stop what started so the process exits with the error.
        await service.close();
        throw err;
      }
      if (stopping) return;
      const storage = config.databaseUrl ? 'PostgreSQL' : `SQLite at ${config.dataDir}/tocsin.db`;
      // Where this process listens and where users reach the service are different things behind a proxy, or
      // for a second process on another port: both are printed, each for what it is.
      service.logger.info(
        { address, publicUrl: config.publicUrl, storage, readyMs: Math.round(performance.now() - startedAt) },
        `Tocsin ready: listening on ${address}; public URL ${config.publicUrl} (storage: ${storage}). ` +
          'Create an organization and an API key with: npx tocsin admin bootstrap --org "My org" --email you@example.com --plan team',
      );
    });
}
