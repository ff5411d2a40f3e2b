/**
 * An OpenAPI parse thread (started by OpenApiParser, one per parse): reads the description, follows its references
 * and builds the operations, then answers and ends. Everything costly about a description happens here, none of it
 * on the main thread: parsing the text, the duplicate-key scan, `$ref` resolution, the monitors.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DomainError } from '../../platform/errors.ts';
import { lowerThreadPriority } from '../../platform/thread-priority.ts';
import { planImport } from './openapi.import.ts';
import type { ParseJob, ParseReply } from './openapi.parse.pool.ts';
import { parseOpenApi } from './openapi.operations.ts';

/** Below the main thread: on busy cores a parse waits for the API and the checks rather than the reverse. */
const PARSE_THREAD_NICE = 10;

lowerThreadPriority(PARSE_THREAD_NICE);
const port = parentPort!;

async function run(job: ParseJob): Promise<ParseReply> {
  if (job.specIsBodyJson) {
    try {
      JSON.parse(job.spec as string);
    } catch {
      throw new DomainError('invalid_json', 'The body is not valid JSON.');
    }
  }
  const operations = await parseOpenApi(job.spec, job.baseUrl, { maxOperations: job.maxOperations });
  if (job.type === 'parse') return { type: 'parsed', json: JSON.stringify({ operations }) };
  const importable = operations.map((o) => ({ operation_id: o.operation_id, monitor: { ...o.monitor } }));
  return { type: 'planned', planned: planImport(importable, job.operationIds, job.defaults) };
}

function failure(err: unknown): ParseReply {
  return {
    type: 'error',
    error:
      err instanceof DomainError
        ? { code: err.code, message: err.message, ...(err.details !== undefined && { details: err.details }) }
        : { code: null, message: err instanceof Error ? (err.stack ?? err.message) : String(err) },
  };
}

// The time limit runs from here: loading this thread's modules is not the description's doing.
port.postMessage({ type: 'ready' } satisfies ParseReply);
const reply = await run(workerData as ParseJob).catch(failure);
port.postMessage(reply);
port.close();
