// @ts-check
// The declared module graph (docs/architecture.md, "Modules as built"): which module of src/modules may import which
// other module (always through its index.ts). tools/eslint/module-boundaries.js refuses any other module import, and
// test/lint/module-boundaries.test.ts checks that the graph has no cycle. A new module, or a new edge, is added here
// and in the architecture's table in the same change.

/** @type {Readonly<Record<string, readonly string[]>>} */
export const MODULE_GRAPH = {
  audit: [],
  events: [],
  imports: [],
  'config-format': [],
  'config-documents': ['auth', 'config-format'],
  orgs: ['audit'],
  auth: ['audit', 'orgs'],
  monitors: ['audit', 'auth', 'orgs'],
  incidents: ['audit', 'auth', 'checks', 'events', 'monitors'],
  intelligence: ['auth', 'events'],
  checks: ['auth', 'events', 'intelligence', 'monitors'],
  maintenance: ['audit', 'auth', 'events', 'incidents', 'monitors'],
  alerting: ['audit', 'auth', 'events', 'monitors', 'orgs', 'silences'],
  reports: ['audit', 'auth', 'checks', 'incidents', 'intelligence', 'monitors', 'orgs'],
  'scheduled-reports': ['audit', 'auth', 'events'],
  'status-pages': ['audit', 'auth', 'incidents', 'monitors', 'orgs', 'reports'],
  live: ['checks', 'events', 'monitors'],
  silences: ['audit', 'auth', 'events', 'monitors'],
  badges: ['audit', 'auth', 'monitors'],
};
