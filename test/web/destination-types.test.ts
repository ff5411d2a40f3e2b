import { describe, expect, it } from 'vitest';
import FIELDS from '../../web/src/api/destination-config.fields.json' with { type: 'json' };
import {
  destinationFieldLabel,
  destinationTypeName,
  NAMED_TYPES,
  namedFields,
  words,
} from '../../web/src/lib/destination-types.ts';

/** The API's types and their config keys, from the document the app is generated from. */
const API_TYPES = FIELDS as Record<string, Array<{ key: string }>>;

describe('destination types shown by product name', () => {
  it('names every type the API has, and no other', () => {
    expect([...NAMED_TYPES].sort()).toEqual(Object.keys(API_TYPES).sort());
  });

  it('words every config field of every type', () => {
    for (const [type, fields] of Object.entries(API_TYPES)) {
      expect([...namedFields(type)].sort(), type).toEqual(fields.map((f) => f.key).sort());
    }
  });

  it('never shows a wire name', () => {
    const wire = /_|chatapp|oncall|incident_tool/;
    for (const [type, fields] of Object.entries(API_TYPES)) {
      expect(destinationTypeName(type), type).not.toMatch(wire);
      for (const f of fields) expect(destinationFieldLabel(type, f.key), `${type}.${f.key}`).not.toMatch(wire);
    }
    expect(destinationTypeName('oncall_pager1')).toBe('PagerDuty');
    expect(destinationTypeName('chatapp2_webhook')).toBe('Discord');
    expect(destinationFieldLabel('oncall_pager1', 'integration_key')).toBe('Integration key');
    // A type added later without a name reads as words, not as its key; a deleted one says so.
    expect(destinationTypeName('new_thing')).toBe('New thing');
    expect(destinationTypeName(null)).toBe('Deleted destination');
    expect(destinationFieldLabel('new_thing', 'api_url')).toBe('API URL');
    expect(words('incident_acknowledged')).toBe('Incident acknowledged');
  });
});
