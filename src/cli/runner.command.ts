import type { Command } from 'commander';
import type { ControlPlaneError } from '../modules/checks/index.ts';
import { redactText } from '../platform/redact.ts';

/** `tocsin runner --region CODE --control-plane URL --token T`: runs one region's checks away from the control plane. */
export function registerRunnerCommand(program: Command): void {
  program
    .command('runner')
    .description('Run the checks of one region against a control plane (long-poll over HTTP(S), results in batches)')
    .requiredOption('--region <code>', 'the region this runner serves (must match its token)')
    .requiredOption('--control-plane <url>', 'the control plane base URL, e.g. https://tocsin.example.com')
    .option('--token <token>', 'runner token (default: TOCSIN_RUNNER_TOKEN)')
    .option('--concurrency <n>', 'checks in flight at most', '200')
    .action(async (opts: { region: string; controlPlane: string; token?: string; concurrency: string }) => {
      // The check engine is loaded when the command runs, not when the CLI starts (see cli.program.ts).
      const [
        { CheckRunner, ControlPlaneError, RemoteWorkSource, connectToControlPlane, createProbeRegistry },
        { systemClock },
        { createLogger },
        { configOrExit },
      ] = await Promise.all([
        import('../modules/checks/index.ts'),
        import('../platform/clock.ts'),
        import('../platform/logger.ts'),
        import('./cli.config.ts'),
      ]);
      const config = configOrExit();
      const logger = createLogger({ level: config.logLevel, pretty: config.logPretty });
      const token = opts.token ?? config.runnerToken;
      if (!token) {
        process.stderr.write('tocsin: --token (or TOCSIN_RUNNER_TOKEN) is required\n');
        process.exit(2);
      }
      const concurrency = Number(opts.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1) {
        process.stderr.write('tocsin: --concurrency must be a positive integer\n');
        process.exit(2);
      }
      const source = new RemoteWorkSource({ controlPlane: opts.controlPlane, token });
      // A control plane that is down (or not up yet) is waited for, like one that goes down later; a refusal is not.
      const hello = await connectToControlPlane({
        source,
        logger: logger.child({ controlPlane: opts.controlPlane }),
        clock: systemClock,
      }).catch((err: unknown) => {
        process.stderr.write(`tocsin: ${refusalMessage(err, ControlPlaneError)}\n`);
        process.exit(2);
      });
      if (hello.region_code !== opts.region) {
        process.stderr.write(`tocsin: this token belongs to region ${hello.region_code}, not ${opts.region}\n`);
        process.exit(2);
      }
      logger.info(
        { runnerId: hello.runner_id, region: hello.region_code, controlPlane: opts.controlPlane },
        'runner connected',
      );
      const runner = new CheckRunner({
        source,
        probes: createProbeRegistry(),
        clock: systemClock,
        logger,
        concurrency,
        claimWaitMs: 25_000,
        allowPrivateTargets: config.network.allowPrivateTargets,
      });
      runner.start();
      const beat = setInterval(() => {
        // An outage is reported once by the runner's claim loop; a failed heartbeat adds nothing to it.
        source
          .heartbeat()
          .catch((err: unknown) => logger.debug({ reason: (err as Error).message }, 'runner heartbeat failed'));
      }, 15_000);
      const stop = (signal: string) => {
        logger.info({ signal }, 'runner stopping: finishing in-flight checks');
        clearInterval(beat);
        runner
          .stop()
          .then(() => process.exit(0))
          .catch(() => process.exit(1));
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
}

/** Why the control plane will not take this runner, for the one line before exit 2. */
function refusalMessage(err: unknown, refusal: typeof ControlPlaneError): string {
  if (err instanceof refusal && (err.status === 401 || err.status === 403)) {
    return `the control plane refused this runner token (${err.status}): check --token or TOCSIN_RUNNER_TOKEN (tokens are made with \`tocsin admin runner-token create\`)`;
  }
  const reason = err instanceof Error ? err.message : String(err);
  return `the control plane did not accept this runner: ${redactText(reason)}`;
}
