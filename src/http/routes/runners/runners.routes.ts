import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CheckEngineModule, Runner } from '../../../modules/checks/index.ts';
import { checkToWire, resultFromWire, type WireResult } from '../../../modules/checks/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import { toIso } from '../../../platform/clock.ts';
import { DomainError } from '../../../platform/errors.ts';
import { bearerOf } from '../../plugins/auth.plugin.ts';

const tags = ['runners'];
const AUTH =
  'Authenticated by a **runner token** (`Authorization: Bearer trn_…`, issued by `tocsin admin runner-token create --region CODE`), ' +
  "not by an API key. The token binds the runner to one region; it may claim and report only that region's checks.";

const ClaimBody = Type.Object({
  max: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'At most this many checks.' }),
  ),
  wait_seconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 25,
      default: 25,
      description: 'Long-poll: hold the request up to this long until work is due.',
    }),
  ),
});

const WireCheckSchema = Type.Object({
  monitor_id: Type.String(),
  organization_id: Type.String(),
  region_code: Type.String(),
  due_at_ms: Type.Integer({ description: 'The schedule slot (epoch ms).' }),
  type: Type.String(),
  target: Type.String(),
  interval_seconds: Type.Integer(),
  config: Type.Object({}, { additionalProperties: true }),
  created_at_ms: Type.Integer(),
  last_heartbeat_at_ms: Type.Union([Type.Integer(), Type.Null()]),
});

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);
const ObservationSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    started_at: Type.Integer({ description: 'Epoch ms.' }),
    duration_ms: Type.Number({ minimum: 0 }),
    timings: Type.Object({
      dns_ms: Nullable(Type.Number()),
      connect_ms: Nullable(Type.Number()),
      tls_ms: Nullable(Type.Number()),
      ttfb_ms: Nullable(Type.Number()),
      download_ms: Nullable(Type.Number()),
      total_ms: Type.Number(),
    }),
    http_status: Type.Union([Type.Integer(), Type.Null()]),
    assertions: Type.Array(
      Type.Object({ type: Type.String(), passed: Type.Boolean() }, { additionalProperties: true }),
      { maxItems: 100 },
    ),
    error: Type.Union([Type.Object({ code: Type.String(), message: Type.String({ maxLength: 2000 }) }), Type.Null()]),
    details: Type.Optional(Type.Object({}, { additionalProperties: true })),
    events: Type.Optional(
      Type.Array(
        Type.Object({ type: Type.Literal('cert_expiring'), data: Type.Object({}, { additionalProperties: true }) }),
        { maxItems: 10 },
      ),
    ),
  },
  { description: "What the probe saw (the probe contract's Observation)." },
);

const ResultsBody = Type.Object({
  results: Type.Array(
    Type.Object({
      monitor_id: Type.String(),
      region_code: Type.String(),
      due_at_ms: Type.Integer(),
      observation: ObservationSchema,
    }),
    { maxItems: 1000 },
  ),
});

async function runnerOf(checks: CheckEngineModule, request: FastifyRequest): Promise<Runner> {
  const token = bearerOf(request);
  const runner = token ? await checks.runners.authenticate(token) : null;
  if (!runner) throw new DomainError('unauthorized', 'Send a runner token as "Authorization: Bearer trn_…".');
  return runner;
}

/** The remote-runner protocol: long-poll claim, batched results, heartbeat. */
export function registerRunnerRoutes(app: FastifyInstance, deps: { checks: CheckEngineModule; clock: Clock }): void {
  const { checks, clock } = deps;
  // The runner is authenticated in `onRequest`, before the body is parsed or validated: a caller without a valid
  // runner token learns nothing about the protocol (401 whatever it sent).
  const runnerOfRequest = new WeakMap<FastifyRequest, Runner>();
  const authenticateRunner = async (request: FastifyRequest): Promise<void> => {
    runnerOfRequest.set(request, await runnerOf(checks, request));
  };
  const authenticated = (request: FastifyRequest): Runner => {
    const runner = runnerOfRequest.get(request);
    if (!runner) throw new DomainError('unauthorized', 'Send a runner token as "Authorization: Bearer trn_…".');
    return runner;
  };

  app.post<{ Body: Static<typeof ClaimBody> }>(
    '/api/v1/runners/claim',
    {
      config: { public: true },
      onRequest: authenticateRunner,
      schema: {
        tags,
        summary: "Claim due checks for the runner's region (long-poll)",
        description: `${AUTH} Claimed checks are leased to the runner; report them with POST /runners/results.`,
        operationId: 'claimRunnerChecks',
        body: ClaimBody,
        response: { 200: Type.Object({ checks: Type.Array(WireCheckSchema) }) },
      },
    },
    async (request) => {
      const runner = authenticated(request);
      const max = request.body?.max ?? 100;
      const waitMs = (request.body?.wait_seconds ?? 25) * 1000;
      // A runner gone (stopped or dead) takes nothing more: what it would claim then would stay leased to it, unrun,
      // until the lease ends.
      const gone = new AbortController();
      request.raw.once('close', () => gone.abort());
      const claimed = await checks.claims.claim(runner.id, [runner.regionCode], max, waitMs, gone.signal);
      return { checks: claimed.map(checkToWire) };
    },
  );

  app.post<{ Body: Static<typeof ResultsBody> }>(
    '/api/v1/runners/results',
    {
      config: { public: true },
      onRequest: authenticateRunner,
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Report the results of claimed checks (one batch, one transaction)',
        description:
          `${AUTH} Every result must be for a check this runner claimed and whose lease has not ended, one result per ` +
          'claim; otherwise nothing of the batch is recorded and the answer is 409 `conflict` with `details[].field` ' +
          '`results[i]` for each such result (the runner drops them and sends the rest again). Results for another ' +
          'region are refused (422).',
        operationId: 'reportRunnerResults',
        body: ResultsBody,
        response: { 200: Type.Object({ accepted: Type.Integer({ description: 'Results recorded.' }) }) },
      },
    },
    async (request) => {
      const runner = authenticated(request);
      const results = request.body.results as unknown as WireResult[];
      const foreign = results.findIndex((r) => r.region_code !== runner.regionCode);
      if (foreign >= 0) {
        throw new DomainError('validation_failed', "A result is for another region than the runner's.", [
          { field: `results[${foreign}].region_code`, issue: `must be ${runner.regionCode}` },
        ]);
      }
      const summary = await checks.engine.applyLeasedResults(runner.id, results.map(resultFromWire));
      return { accepted: summary.recorded };
    },
  );

  app.get(
    '/api/v1/regions',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags,
        summary: 'Regions and whether checks run in them',
        description:
          'A region is `live` when this deployment checks it in-process (`scheduler.local_regions`) or a runner of the region ' +
          'was heard from within 60 s; otherwise `no_data`: its checks are not run and it is left out of the region quorum ' +
          '(its monitors are not marked down for it).',
        operationId: 'listRegions',
        response: {
          200: Type.Object({
            data: Type.Array(
              Type.Object({
                region_code: Type.String(),
                served_locally: Type.Boolean(),
                live_runners: Type.Integer(),
                state: Type.Union([Type.Literal('live'), Type.Literal('no_data')]),
              }),
            ),
            next_cursor: Type.Null(),
          }),
        },
      },
    },
    async () => ({ data: await checks.runners.regionLiveness(), next_cursor: null }),
  );

  app.post(
    '/api/v1/runners/heartbeat',
    {
      config: { public: true },
      onRequest: authenticateRunner,
      schema: {
        tags,
        summary: 'Tell the control plane this runner is alive',
        description: `${AUTH} A region whose runners have not been heard from for 60 s (and that is not served in-process) shows no data.`,
        operationId: 'runnerHeartbeat',
        response: {
          200: Type.Object({
            runner_id: Type.String(),
            region_code: Type.String(),
            server_time: Type.String({ format: 'date-time' }),
          }),
        },
      },
    },
    async (request) => {
      const runner = authenticated(request);
      return { runner_id: runner.id, region_code: runner.regionCode, server_time: toIso(clock.now()) };
    },
  );
}
