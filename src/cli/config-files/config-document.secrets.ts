/** `${env:NAME}`: a secret (or any text) taken from the environment of the process that reads the document. */
const REFERENCE = /\$\{env:([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface SecretProblem {
  field: string;
  issue: string;
}

/**
 * Puts each `${env:NAME}` of the document's strings in place, in a copy. A name that is not a variable name or is
 * not set is a problem at its field (never an empty string sent on).
 */
export function withSecrets(
  value: unknown,
  env: (name: string) => string | undefined,
  field = '',
): { value: unknown; problems: SecretProblem[]; secretFields: string[] } {
  const problems: SecretProblem[] = [];
  const secretFields: string[] = [];
  const walk = (node: unknown, at: string): unknown => {
    if (typeof node === 'string') {
      return node.replace(REFERENCE, (whole, name: string) => {
        if (!NAME.test(name)) {
          problems.push({ field: at, issue: `${whole} does not name an environment variable` });
          return whole;
        }
        const found = env(name);
        if (found === undefined) {
          problems.push({ field: at, issue: `names the environment variable ${name}, which is not set` });
          return whole;
        }
        if (secretFields.at(-1) !== at) secretFields.push(at);
        return found;
      });
    }
    if (Array.isArray(node)) return node.map((element, i) => walk(element, `${at}[${i}]`));
    if (typeof node === 'object' && node !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) out[k] = walk(v, at === '' ? k : `${at}.${k}`);
      return out;
    }
    return node;
  };
  return { value: walk(value, field), problems, secretFields };
}
