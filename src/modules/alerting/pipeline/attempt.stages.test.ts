import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../platform/secrets.ts';
import { createProviderRegistry } from '../destinations/index.ts';
import { DestinationsRepository } from '../destinations.repository.ts';
import { DestinationSecrets } from '../destination.secrets.ts';
import type { DeliveryRecord } from '../alerting.types.ts';
import { resolveStage } from './attempt.stages.ts';
import { createTestApp, type TestApp, type TestOrg } from '../../../../test/support/app.ts';
import { alertEvent, providerContext } from '../../../../test/fakes/alert-events.ts';
import { api, WEBHOOKS } from '../../../../test/alerting/helpers.ts';

describe('resolve stage: the stored config is parsed once, against its type schema', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
  });
  afterAll(async () => t.close());

  const resolveFor = async (destinationId: string) => {
    const stage = resolveStage({
      database: t.tocsin.database,
      registry: createProviderRegistry(),
      // An email destination has no sealed secrets: the box is never opened.
      secrets: new DestinationSecrets(new SecretBox(Buffer.alloc(32, 1))),
      providerContext: providerContext(),
      allowPrivateTargets: true,
    });
    const delivery = {
      id: 'dlv_1',
      attempts: 1,
      target: { kind: 'destination', destinationId },
      event: alertEvent('down'),
    } as unknown as DeliveryRecord;
    return stage({ delivery });
  };

  it('hands the provider the typed config of a valid destination', async () => {
    const created = await api(t, org.apiKey, 'POST', WEBHOOKS, {
      type: 'email',
      config: { address: 'ops@example.com' },
    });
    const attempt = await resolveFor(created.body.id);
    expect(attempt.result).toBeUndefined();
    expect(attempt.target?.record.config).toEqual({ address: 'ops@example.com' });
  });

  it('ends a destination whose stored config no longer fits its schema as destination_broken, naming the field', async () => {
    const created = await api(t, org.apiKey, 'POST', WEBHOOKS, {
      type: 'email',
      config: { address: 'ops@example.com' },
    });
    const repo = new DestinationsRepository(t.tocsin.database);
    const stored = (await repo.findAnywhere(created.body.id))!;
    await repo.update({ ...stored, config: { address: 'not an address' } });
    const attempt = await resolveFor(created.body.id);
    expect(attempt.target).toBeUndefined();
    expect(attempt.result).toEqual({
      outcome: 'destination_broken',
      reason: "the destination's config is not valid: config.address must be an email address",
    });
  });
});
