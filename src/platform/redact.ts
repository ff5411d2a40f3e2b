/**
 * Removes credentials from text that may reach a log line or an error message: the userinfo of URLs
 * (`postgres://app:secret@db/x` → `postgres://app:[redacted]@db/x`) and the values of query parameters
 * that carry secrets (`?api_key=…`, `&token=…`, `signature=…`).
 */

export const REDACTED = '[redacted]';

/**
 * A parameter name that carries a credential: the name itself (`token`, `key`, `sig`…) or any name ending
 * in one after `_`/`-` (`access_token`, `refresh_token`, `api_key`, `x-api-key`, `client_secret`, `jwt`, `bearer`,
 * `session`); `code` (an OAuth authorization code) only as itself. Case-insensitive.
 */
const SECRET_PARAM =
  /^(?:(?:[a-z0-9]*[_-])*(?:token|key|apikey|secret|password|passwd|pwd|signature|sig|auth|authorization|credentials?|session|jwt|bearer)|code|pass)$/i;

// scheme://userinfo@ — the userinfo runs to the last `@` before the authority ends (`/`, `?`, `#`, space, quote).
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/?#\s"'<>@]*(?:@[^/?#\s"'<>@]*)*)@/gi;
// Every secret name contains one of these (or is percent-encoded): text without any cannot need the scan below.
const SECRET_HINT = /token|key|secret|pass|pwd|sig|auth|credential|code|session|jwt|bearer|%/i;
// name=value after `?`, `&` or `;`; the value runs to the next separator, space, quote or fragment, and stops at
// any character a URL cannot hold unencoded (`\`, `` ` ``, `{}|^[]`). The backslash matters most: in a JSON log line
// it starts the escape that ends the value (`…?token=abc\n\nThe link…`, `\"`), and swallowing it would take the
// text after the secret with it (or break the line's JSON).
const QUERY_PARAM = /([?&;])([^=&;?#\s"'<>]+)=([^&;#\s"'<>\\`{}|^[\]]*)/g;
// Tocsin's own credentials wherever they are pasted (another parameter, a path segment, a message): API keys
// `tsk_`, runner tokens `trn_`, signing secrets `whsec_` (also percent-encoded). The 4-character prefix a key is
// shown by (`tsk_MK44`) is shorter than the 16 characters required here and stays.
const OWN_SECRET = /\b(tsk|trn|whsec)_[A-Za-z0-9_\-+/=%]{16,}/g;
const OWN_SECRET_HINT = /tsk_|trn_|whsec_/;

function redactUserinfo(_match: string, scheme: string, userinfo: string): string {
  const colon = userinfo.indexOf(':');
  // `user:password@` keeps the user (useful to say who failed to connect); a bare `token@` is all secret.
  return colon === -1 ? `${scheme}${REDACTED}@` : `${scheme}${userinfo.slice(0, colon)}:${REDACTED}@`;
}

/** The name as a secret test reads it: decoded, without the `[]` or `[x]` of array-style names (`api_key[]`). */
function decodedName(name: string): string {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // a broken percent-encoding: test the name as written
  }
  return decoded.replace(/\[[^\]]*\]$/, '');
}

function redactParam(match: string, separator: string, name: string, value: string): string {
  if (value === '' || value === REDACTED || !SECRET_PARAM.test(decodedName(name))) return match;
  return `${separator}${name}=${REDACTED}`;
}

/** Whether a field or parameter named `name` carries a credential (the rule query parameters are redacted by). */
export function isSecretName(name: string): boolean {
  // camelCase names (`heartbeatToken`, `signingSecret`) read as their snake_case twins.
  return SECRET_PARAM.test(decodedName(name).replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
}

/** Redacts every URL credential and secret query value found anywhere in `text`. */
export function redactText(text: string): string {
  // Cheap tests first: most log lines have neither a userinfo nor a query string.
  let out = text;
  if (out.includes('://') && out.includes('@')) out = out.replace(USERINFO, redactUserinfo);
  if (out.includes('=') && SECRET_HINT.test(out)) out = out.replace(QUERY_PARAM, redactParam);
  if (OWN_SECRET_HINT.test(out)) out = out.replace(OWN_SECRET, `$1_${REDACTED}`);
  return out;
}

/** Redacts one URL (absolute, or a path with a query string as in a request line). */
export function redactUrl(url: string): string {
  return redactText(url);
}
