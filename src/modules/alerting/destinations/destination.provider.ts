import type { Static, TObject } from '@sinclair/typebox';
import { schemaCheck } from '../../../platform/schema/index.ts';
import type { DestinationProvider, DestinationType } from './destination.contract.ts';
import { secretFieldsOf } from './destination.validation.ts';

type Definition<Req, S extends TObject> = Pick<
  DestinationProvider<Req, Static<S>>,
  'type' | 'render' | 'renderGroup' | 'send'
> & {
  configSchema: S;
};

/** The order of a config's issues: the schema's fields in their order, then unknown keys (as a reader scans it). */
function rank(schema: TObject, field: string): number {
  const name = field.replace(/^config\.?/, '').split(/[.[]/)[0] ?? '';
  const index = Object.keys(schema.properties).indexOf(name);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

/** A provider whose config checks, secret fields and typed config all come from its one schema. */
export function defineProvider<Req, S extends TObject, T extends DestinationType>(
  definition: Definition<Req, S> & { type: T },
): DestinationProvider<Req, Static<S>> & { type: T } {
  const check = schemaCheck(definition.configSchema, 'config');
  const parseConfig: DestinationProvider<Req, Static<S>>['parseConfig'] = (config) => {
    const result = check(config);
    if (result.ok) return { ok: true, config: result.value };
    const issues = result.details
      .map((d, i) => ({ d, i }))
      .sort((a, b) => rank(definition.configSchema, a.d.field) - rank(definition.configSchema, b.d.field) || a.i - b.i)
      .map(({ d }) => d);
    return { ok: false, issues };
  };
  return {
    ...definition,
    secretFields: secretFieldsOf(definition.configSchema),
    parseConfig,
    validateConfig: (config) => {
      const parsed = parseConfig(config);
      return parsed.ok ? [] : parsed.issues;
    },
  };
}
