import { configDocumentSchema } from '../../src/http/schemas/config-document.schema.ts';

/** The shipped file's text: the schema, two-space indented, with a final newline (what prettier leaves as is). */
export function configSchemaText(): string {
  return `${JSON.stringify(configDocumentSchema(), null, 2)}\n`;
}
