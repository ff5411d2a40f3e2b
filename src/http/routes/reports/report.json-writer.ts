import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import fastJson from 'fast-json-stringify';
import { simplifyForSerializing } from '../../plugins/serialization.plugin.ts';

type Serializer = (data: unknown) => string;

/** Monitor rows serialized between two turns of the event loop (1,000 performance rows are ≈ 6 MB of JSON). */
const ROWS_PER_CHUNK = 50;

/**
 * Writes a report whose last property is the `monitors` array as the route's response serializer would (the same
 * fast-json-stringify code from the same schema, so the same bytes), but the rows a chunk at a time with the event
 * loop running in between: serializing a report of 1,000 monitors in one call held checks up for hundreds of
 * milliseconds. Compiled on first use, like the response serializers.
 */
export class ChunkedReportWriter {
  private compiled: { head: Serializer; rows: Serializer } | undefined;
  private readonly app: FastifyInstance;
  private readonly schema: TSchema;

  constructor(app: FastifyInstance, schema: TSchema) {
    this.app = app;
    this.schema = schema;
  }

  async write(report: { monitors: readonly unknown[] }): Promise<string> {
    const { head, rows } = this.serializers();
    // `monitors` is the schema's last property, so the rest of the report ends with `"monitors":[]}`.
    const empty = head({ ...report, monitors: [] });
    const suffix = '"monitors":[]}';
    if (!empty.endsWith(suffix)) throw new Error('report schema: monitors is not the last property');
    const parts: string[] = [empty.slice(0, -']}'.length)];
    for (let i = 0; i < report.monitors.length; i += ROWS_PER_CHUNK) {
      if (i > 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        parts.push(',');
      }
      const chunk = rows(report.monitors.slice(i, i + ROWS_PER_CHUNK));
      parts.push(chunk.slice(1, -1));
    }
    parts.push(']}');
    return parts.join('');
  }

  private serializers(): { head: Serializer; rows: Serializer } {
    if (this.compiled) return this.compiled;
    const external: Record<string, fastJson.Schema> = {};
    for (const [id, value] of Object.entries(this.app.getSchemas() as Record<string, fastJson.Schema>)) {
      if (id !== this.schema.$id) external[id] = simplifyForSerializing(value) as fastJson.Schema;
    }
    const whole = simplifyForSerializing(this.schema) as fastJson.Schema & {
      properties: { monitors: fastJson.Schema };
    };
    this.compiled = {
      head: fastJson(whole, { schema: external }) as Serializer,
      rows: fastJson(whole.properties.monitors, { schema: external }) as Serializer,
    };
    return this.compiled;
  }
}
