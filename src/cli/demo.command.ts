import type { Command } from 'commander';

/** How long the demo's monitors are kept from a running server's runner at most (released as soon as it is done). */
const HOLD_MS = 30 * 60_000;
const PROGRESS_EVERY_MS = 2_000;

function positiveInt(name: string, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) {
      process.stderr.write(`tocsin: --${name} must be a whole number from 1 to ${max} (got "${value}")\n`);
      process.exit(2);
    }
    return n;
  };
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'Create a demo organization with monitors and days of history (outages, incidents, slow days, a pause, SLA ' +
        'targets, a custom report) recorded through the check engine; prints the organization, owner and API key ' +
        'once as JSON',
    )
    .option('--monitors <n>', 'how many monitors', positiveInt('monitors', 5_000), 25)
    .option('--days <n>', 'days of history, ending now', positiveInt('days', 400), 90)
    .option('--org <name>', 'organization name', 'Demo')
    .option('--email <email>', "owner's email address", 'demo@example.com')
    .option(
      '--interval <seconds>',
      'seconds between two checks of a demo monitor',
      positiveInt('interval', 86_400),
      300,
    )
    .option('--seed <n>', 'the same seed makes the same history', positiveInt('seed', 2 ** 31), 1)
    .action(
      async (opts: { monitors: number; days: number; org: string; email: string; interval: number; seed: number }) => {
        if (opts.interval < 10) {
          process.stderr.write('tocsin: --interval must be at least 10 seconds (the shortest a plan allows)\n');
          process.exit(2);
        }
        // The application is loaded when the command runs, not when the CLI starts (see cli.program.ts).
        const [{ createTocsin }, { DayPrefixesCompactor }, { ManualClock }, { createLogger }, { configOrExit }, demo] =
          await Promise.all([
            import('../main.ts'),
            import('../modules/checks/index.ts'),
            import('../platform/clock.ts'),
            import('../platform/logger.ts'),
            import('./cli.config.ts'),
            import('./demo/demo.generator.ts'),
          ]);
        const started = Date.now();
        // The history is written as it happens: the clock stands at each moment in turn and ends at the present.
        const clock = new ManualClock(started);
        const logger = createLogger({ level: 'warn', pretty: false, destination: process.stderr });
        const config = configOrExit();
        const tocsin = await createTocsin(config, { logger, clock, background: false });
        // Progress goes to stderr, a line at a time (stdout is the one JSON result).
        const say = (line: string) => process.stderr.write(`demo: ${line}\n`);
        say(
          `writing ${opts.monitors} monitors × ${opts.days} days (a check every ${opts.interval} s) into ` +
            `${config.databaseUrl ? 'PostgreSQL' : `${config.dataDir} (SQLite)`}; a running tocsin serve keeps serving`,
        );
        let lastSaid = started;
        try {
          const result = await demo.generateDemo(
            {
              services: tocsin.services,
              database: tocsin.database,
              clock,
              logger,
              // A server running meanwhile leaves the demo's monitors to it until their history is written.
              hold: { owner: `tocsin-demo-${process.pid}`, until: started + HOLD_MS },
            },
            {
              monitors: opts.monitors,
              days: opts.days,
              intervalSeconds: opts.interval,
              now: started,
              seed: opts.seed,
              organizationName: opts.org,
              email: opts.email,
              progress: (done, total) => {
                const now = Date.now();
                if (now - lastSaid < PROGRESS_EVERY_MS) return;
                lastSaid = now;
                say(
                  `${Math.round((100 * done) / total)} % of the history written (${Math.round((now - started) / 1000)} s)`,
                );
              },
            },
          );
          say(`history written in ${Math.round((Date.now() - started) / 1000)} s; summing the closed days`);
          // The closed days get their prefix sums now (what `tocsin serve` does within minutes): reports in any zone
          // read one prefix per day from the start.
          await new DayPrefixesCompactor({ database: tocsin.database, clock }).compactOnce();
          const { plan: _plan, ...out } = result;
          process.stdout.write(`${JSON.stringify({ ...out, seconds: (Date.now() - started) / 1000 })}\n`);
        } finally {
          await tocsin.close();
        }
      },
    );
}
