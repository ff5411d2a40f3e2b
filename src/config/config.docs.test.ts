import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigFileSchema } from './config.schema.ts';

type SchemaNode = { properties?: Record<string, SchemaNode>; additionalProperties?: unknown; 'x-doc-key'?: string };

/**
 * Every leaf key of the file as docs/configuration.md writes it: `plans.<plan>.monitors`, `providers.<type>.base_url`
 * (an object of named entries shows its `x-doc-key`), and `providers.chatapp1_channel.client_id` for a field only one
 * entry has.
 */
function documentedKeys(node: SchemaNode, prefix: string): string[] {
  const join = (name: string) => (prefix === '' ? name : `${prefix}.${name}`);
  const entries = Object.entries(node.properties ?? {});
  const other = typeof node.additionalProperties === 'object' ? (node.additionalProperties as SchemaNode) : null;
  if (entries.length === 0 && !other) return [prefix];
  const placeholder = node['x-doc-key'];
  if (!placeholder) return entries.flatMap(([name, child]) => documentedKeys(child, join(name)));
  const general = documentedKeys(other ?? entries[0]![1], join(placeholder));
  const specific = entries.flatMap(([name, child]) =>
    documentedKeys(child, join(name)).filter((key) => !general.includes(key.replace(join(name), join(placeholder)))),
  );
  return [...general, ...specific];
}

describe('docs/configuration.md', () => {
  const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

  it('documents every key of the configuration file schema', () => {
    const keys = documentedKeys(ConfigFileSchema as SchemaNode, '');
    expect(keys).toContain('plans.<plan>.monitors');
    expect(keys).toContain('providers.<type>.base_url');
    expect(keys).toContain('providers.chatapp1_channel.client_secret');
    expect(keys.filter((key) => !doc.includes(`| \`${key}\``))).toEqual([]);
  });
});
