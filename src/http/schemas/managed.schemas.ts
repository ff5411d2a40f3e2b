import { Type } from '@sinclair/typebox';

/**
 * Present only on a record a configuration document manages (DECISIONS §19): the API refuses to change it
 * (409 managed_by_config) and the web app shows it read-only.
 */
export const MANAGED_FIELDS = {
  managed_by: Type.Optional(
    Type.Literal('config', { description: 'Only on a record configuration as code manages: "config".' }),
  ),
  config_key: Type.Optional(Type.String({ description: 'Its key in the configuration document (managed records).' })),
};
