/** Slack OAuth v2 install flow helpers (pure apart from the injected fetch). */

export const DEFAULT_SLACK_SCOPES = ['chat:write', 'chat:write.public'];

export interface InstallUrlInput {
  clientId: string;
  redirectUri: string;
  /** Anti-CSRF state; the caller stores and checks it. */
  state: string;
  scopes?: string[];
  /** Defaults to https://slack.com (the authorize page lives on the Slack web host). */
  base?: string;
}

export function buildInstallUrl(input: InstallUrlInput): string {
  const base = (input.base ?? 'https://slack.com').replace(/\/+$/, '');
  const params = new URLSearchParams({
    client_id: input.clientId,
    scope: (input.scopes ?? DEFAULT_SLACK_SCOPES).join(','),
    redirect_uri: input.redirectUri,
    state: input.state,
  });
  return `${base}/oauth/v2/authorize?${params.toString()}`;
}

export interface ExchangeCodeInput {
  /** Slack Web API base (providers.chatapp1_channel.base_url), e.g. https://slack.com */
  base: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  fetch: typeof fetch;
  timeoutMs?: number;
}

export interface SlackInstallation {
  botToken: string;
  botUserId: string | null;
  appId: string | null;
  scope: string;
  team: { id: string; name: string | null };
  enterpriseId: string | null;
  /** Present only with token rotation. */
  refreshToken: string | null;
  expiresInSeconds: number | null;
}

export type ExchangeCodeResult = { ok: true; installation: SlackInstallation } | { ok: false; error: string };

/** `POST {base}/api/oauth.v2.access` with HTTP Basic client credentials. Never throws; never echoes secrets. */
export async function exchangeCode(input: ExchangeCodeInput): Promise<ExchangeCodeResult> {
  let body: Record<string, unknown>;
  try {
    const res = await input.fetch(`${input.base.replace(/\/+$/, '')}/api/oauth.v2.access`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${input.clientId}:${input.clientSecret}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ code: input.code, redirect_uri: input.redirectUri }).toString(),
      signal: AbortSignal.timeout(input.timeoutMs ?? 15_000),
    });
    const parsed: unknown = await res.json().catch(() => null);
    if (parsed === null || typeof parsed !== 'object')
      return { ok: false, error: `unexpected response (HTTP ${res.status})` };
    body = parsed as Record<string, unknown>;
  } catch {
    return { ok: false, error: 'network error' };
  }
  if (body.ok !== true) return { ok: false, error: typeof body.error === 'string' ? body.error : 'unknown_error' };
  if (typeof body.access_token !== 'string') return { ok: false, error: 'no access_token in response' };
  const team = (body.team ?? {}) as { id?: unknown; name?: unknown };
  const enterprise: Record<string, unknown> =
    body.enterprise !== null && typeof body.enterprise === 'object' ? { ...body.enterprise } : {};
  return {
    ok: true,
    installation: {
      botToken: body.access_token,
      botUserId: typeof body.bot_user_id === 'string' ? body.bot_user_id : null,
      appId: typeof body.app_id === 'string' ? body.app_id : null,
      scope: typeof body.scope === 'string' ? body.scope : '',
      team: { id: typeof team.id === 'string' ? team.id : '', name: typeof team.name === 'string' ? team.name : null },
      enterpriseId: typeof enterprise.id === 'string' ? enterprise.id : null,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
      expiresInSeconds: typeof body.expires_in === 'number' ? body.expires_in : null,
    },
  };
}
