import { Type, type TSchema } from '@sinclair/typebox';

/**
 * A 200 that is a file in one of several media types, each with its own schema: the JSON one is the report's
 * object, CSV is text, PDF is bytes. One schema for all (what `produces` did) declared a JSON report as a PDF's
 * bytes, or a CSV as the JSON object.
 */
export function fileResponse(
  description: string,
  media: { json?: TSchema; csv?: true; pdf?: true },
): { description: string; content: Record<string, { schema: TSchema }> } {
  const content: Record<string, { schema: TSchema }> = {};
  if (media.json) content['application/json'] = { schema: media.json };
  if (media.csv)
    content['text/csv'] = {
      schema: Type.String({ contentMediaType: 'text/csv', description: 'UTF-8 CSV (RFC 4180) with a header row.' }),
    };
  if (media.pdf)
    content['application/pdf'] = {
      schema: Type.String({ contentMediaType: 'application/pdf', description: 'A PDF document (bytes).' }),
    };
  return { description, content };
}
