// @ts-check
// The dependency rule of docs/architecture.md as a lint rule:
//   http/, cli/, main.ts → modules/ → platform/ (config/ is read by every layer; platform/ never reaches up),
//   and a module is entered from outside only through its index.ts.
import path from 'node:path';

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
    },
    schema: [],
  },
  create(context) {
    const filename = context.filename;
    const srcRoot = path.join(context.cwd, 'src');
    const from = locate(filename, srcRoot);
    if (!from) return {};
    /** @param {import('estree').Node & { source?: any }} node */
    function check(node) {
      const source = node.source;
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = locate(path.resolve(path.dirname(filename), source.value), srcRoot);
      if (!target || !from) return;
      if (target.layer !== from.layer) {
        const allowed = /** @type {Record<string, string[]>} */ (ALLOWED)[from.layer] ?? [];
        if (!allowed.includes(target.layer)) {
          context.report({ node: source, messageId: 'direction', data: { from: from.layer, to: target.layer } });
          return;
        }
      }
      if (target.layer === 'modules' && target.module !== from.module) {
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
