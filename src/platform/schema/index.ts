/** JSON Schema (TypeBox) validation shared by the routes, the modules and the configuration file. */
export { newAjv, type AjvInstance } from './schema.ajv.ts';
export { detailsFromAjv, pathToField } from './schema.details.ts';
export { schemaCheck, type SchemaCheck, type SchemaResult } from './schema.check.ts';
export { urlIssue, type UrlRule } from './schema.url.ts';
