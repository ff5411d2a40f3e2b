// @ts-check
// The dependency rule of docs/architecture.md as a lint rule:
//   http/, cli/, main.ts → modules/ → platform/ (config/ is read by every layer; platform/ never reaches up),
//   a module is entered from outside only through its index.ts, and a module imports only the modules the declared
//   graph (module-graph.js) gives it. Relative specifiers and the package's `#src/…` specifiers are checked alike.
import path from 'node:path';
import { MODULE_GRAPH } from './module-graph.js';

/** The package.json `imports` entry that maps `#src/*` to `./src/*`. */
const SRC_SPECIFIER = '#src/';

/** @param {string} file absolute path @param {string} srcRoot */
function locate(file, srcRoot) {
  const rel = path.relative(srcRoot, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  const layer = parts.length === 1 ? 'root' : parts[0];
  const module = layer === 'modules' ? parts[1] : null;
  return { rel, parts, layer, module };
}

/** Which layers each layer may import (besides itself). */
const ALLOWED = {
  root: ['http', 'cli', 'modules', 'platform', 'config'],
  http: ['modules', 'platform', 'config'],
  cli: ['modules', 'platform', 'config', 'root', 'http'],
  modules: ['platform', 'config'],
  platform: ['config'],
  config: ['platform'],
};

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow http|cli → modules → platform and enter a module only through its index.ts' },
    messages: {
      direction:
        '{{from}} must not import from {{to}} (the rule is http|cli → modules → platform; see docs/architecture.md)',
      internals: "Import module '{{module}}' through its index.ts, not '{{path}}'",
      graph:
        "Module '{{from}}' may not import module '{{to}}': the declared graph (tools/eslint/module-graph.js, docs/architecture.md) gives it {{allowed}}",
      undeclared:
        "Module '{{module}}' is not in the declared graph: add it to tools/eslint/module-graph.js and docs/architecture.md",
    },
    schema: [],
  },
  create(context) {
    const filename = context.filename;
    const srcRoot = path.join(context.cwd, 'src');
    const from = locate(filename, srcRoot);
    if (!from) return {};
    /** @type {Record<string, readonly string[]>} */
    const graph = MODULE_GRAPH;
    /** @param {string} specifier */
    function resolve(specifier) {
      if (specifier.startsWith('.')) return path.resolve(path.dirname(filename), specifier);
      if (specifier.startsWith(SRC_SPECIFIER)) return path.join(srcRoot, specifier.slice(SRC_SPECIFIER.length));
      return null;
    }
    /** @param {import('estree').Node & { source?: any }} node */
    function check(node) {
      const source = node.source;
      if (!source || typeof source.value !== 'string') return;
      const resolved = resolve(source.value);
      const target = resolved === null ? null : locate(resolved, srcRoot);
      if (!target || !from) return;
      if (target.layer !== from.layer) {
        const allowed = /** @type {Record<string, string[]>} */ (ALLOWED)[from.layer] ?? [];
        if (!allowed.includes(target.layer)) {
          context.report({ node: source, messageId: 'direction', data: { from: from.layer, to: target.layer } });
          return;
        }
      }
      if (target.layer === 'modules' && target.module !== from.module) {
        if (from.layer === 'modules' && from.module) {
          const allowed = graph[from.module];
          if (!allowed) {
            context.report({ node: source, messageId: 'undeclared', data: { module: from.module } });
            return;
          }
          if (!allowed.includes(String(target.module))) {
            context.report({
              node: source,
              messageId: 'graph',
              data: {
                from: from.module,
                to: String(target.module),
                allowed: allowed.length > 0 ? allowed.join(', ') : 'no other module',
              },
            });
            return;
          }
        }
        const isIndex = target.parts.length === 3 && target.parts[2] === 'index.ts';
        if (!isIndex) {
          context.report({
            node: source,
            messageId: 'internals',
            data: { module: String(target.module), path: source.value },
          });
        }
      }
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'module-boundaries': rule } };
