/**
 * Child process of monitor-changes.kill9.test.ts: the real services (createTocsin, no background roles) on
 * the database named by the environment, changing monitors as fast as it can until it is killed: creates
 * (each also put on a status page), updates of regions and interval, pauses, resumes and deletes.
 * Prints "ready" once it has made its first change.
 */
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import type { ServiceContext } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';

const REGIONS = ['local', 'eu', 'us'];
const config = loadConfig({ env: process.env, isTty: false });
const tocsin = await createTocsin(config, {
  logger: createLogger({ level: 'error', pretty: false }),
  background: false,
  migrate: false,
});
const { monitors, statusPages, auth } = tocsin.services;
const actor = (await auth.authenticate(process.env.KILL9_API_KEY!))!;
const ctx: ServiceContext = { actor, db: tocsin.database, clock: tocsin.clock };
const pageId = process.env.KILL9_PAGE_ID!;
let seed = Number(process.env.KILL9_SEED ?? 1);
/** A small deterministic generator, so a failing run can be repeated with its seed. */
function random(n: number): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed % n;
}
function regions(): string[] {
  const picked = REGIONS.filter(() => random(2) === 0);
  return picked.length > 0 ? picked : [REGIONS[random(REGIONS.length)]!];
}

let ready = false;
for (let i = 0; ; i++) {
  const existing = (await monitors.list(ctx, {}, { limit: 200 })).data;
  const pick = existing[random(Math.max(1, existing.length))];
  const action = existing.length < 8 ? 0 : random(5);
  if (action === 0 || !pick) {
    const monitor = await monitors.create(ctx, {
      target: `https://m${i}.example.com`,
      interval_seconds: 10 + random(50),
      region_codes: regions(),
    });
    const page = await statusPages.get(ctx, pageId);
    await statusPages.update(ctx, pageId, { monitor_ids: [...page.monitorIds, monitor.id].slice(-50) });
  } else if (action === 1) {
    await monitors.update(ctx, pick.id, { region_codes: regions(), interval_seconds: 10 + random(50) });
  } else if (action === 2) {
    await monitors.pause(ctx, pick.id);
  } else if (action === 3) {
    await monitors.resume(ctx, pick.id);
  } else {
    await monitors.delete(ctx, pick.id);
  }
  if (!ready) {
    ready = true;
    process.stdout.write('ready\n');
  }
}
