import { createHash } from 'node:crypto';
import type { PlanName } from '../../config/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { newId, randomToken } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditLog, AuditOrigin, AuditTrail } from '../audit/index.ts';
import type { CredentialsService, Organization, OrgsService, Role, User } from '../orgs/index.ts';
import type { Actor } from './actor.ts';
import { csrfTokenOf } from './csrf.ts';
import { DummyPassword, hashPassword, passwordIssue, verifyPassword } from './password.hash.ts';
import { expandScopes, SCOPES } from './scopes.ts';
import {
  LAST_SEEN_RESOLUTION_MS,
  SESSION_LIFETIMES,
  SESSION_RATE_LIMITS,
  type ClientInfo,
  type SessionInfo,
  type SessionLifetimes,
  type SessionListItem,
  type SessionMailer,
  type SignedIn,
} from './session.types.ts';
import { SessionsRepository, type ResolvedSessionRow } from './sessions.repository.ts';
import { SignInThrottle } from './sign-in.throttle.ts';

export interface SessionServiceDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  orgs: OrgsService;
  credentials: CredentialsService;
  mailer: SessionMailer;
  /** Sign-ins, failed sign-ins and sign-outs are recorded (DECISIONS §21). */
  audit: AuditLog;
  /** Links in mails start with it. */
  publicUrl: string;
  throttle?: SignInThrottle;
  lifetimes?: SessionLifetimes;
}

const ALL_SCOPES = expandScopes(SCOPES);

/** How long a resolved session is reused without reading it again (like a key's cache). */
const SESSION_CACHE_MS = 1000;

/** How long a password reset link works. */
const RESET_TTL_MS = 3_600_000;

function sha256(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The origin of what a person does through a public endpoint (sign-in, setup, links): themselves. */
function personOrigin(user: { id: string; email: string; name: string | null }, client: ClientInfo): AuditOrigin {
  return {
    actor: { type: 'user', id: user.id, name: user.name ?? user.email },
    ip: client.ip,
    requestId: client.requestId ?? null,
  };
}

function invalidCredentials(): DomainError {
  return new DomainError('invalid_credentials', 'The email address or the password is wrong.');
}

function requirePassword(password: string, details: ErrorDetail[], field = 'password'): void {
  const issue = passwordIssue(password);
  if (issue) details.push({ field, issue });
}

/**
 * People signing in to the web app (DECISIONS §14): first run, sign-in with a slow-down of repeated failures,
 * sessions (only a hash of the cookie's token is stored; idle and absolute expiry), the actor a session acts as,
 * password reset and invitation links.
 */
export class SessionService {
  private readonly deps: SessionServiceDeps;
  private readonly throttle: SignInThrottle;
  private readonly lifetimes: SessionLifetimes;
  private readonly dummy = new DummyPassword();
  private readonly cache = new Map<string, { row: ResolvedSessionRow | null; until: number }>();
  constructor(deps: SessionServiceDeps) {
    this.deps = deps;
    this.throttle = deps.throttle ?? new SignInThrottle({ database: deps.database, clock: deps.clock });
    this.lifetimes = deps.lifetimes ?? SESSION_LIFETIMES;
  }

  setupNeeded(): Promise<boolean> {
    return this.deps.credentials.setupNeeded();
  }

  /** First run: the organization, its owner (password set, address verified) and a session for them. */
  async setup(
    input: { organization_name: string; name: string; email: string; password: string },
    client: ClientInfo,
  ): Promise<SignedIn> {
    const details: ErrorDetail[] = [];
    if (input.organization_name.trim() === '') details.push({ field: 'organization_name', issue: 'must not be empty' });
    if (input.name.trim() === '') details.push({ field: 'name', issue: 'must not be empty' });
    if (!/^[^\s@]+@[^\s@]+$/.test(input.email.trim()))
      details.push({ field: 'email', issue: 'must be an email address' });
    requirePassword(input.password, details);
    if (details.length > 0) throw validationFailed(details);
    if (!(await this.setupNeeded()))
      throw new DomainError('already_set_up', 'This Tocsin is already set up; sign in instead.');
    const passwordHash = await hashPassword(input.password);
    return this.deps.database.transaction(async (tx) => {
      const { organization, user } = await this.deps.credentials.setup(
        { organizationName: input.organization_name.trim(), name: input.name.trim(), email: input.email, passwordHash },
        tx,
      );
      await this.deps.audit.record(tx, personOrigin(user, client), {
        organizationId: organization.id,
        action: 'organization.setup',
        target: { type: 'organization', id: organization.id },
        changes: { name: [null, organization.name], owner: [null, user.email] },
      });
      return this.open(user, organization, 'owner', client, tx);
    });
  }

  /**
   * Email and password → a session in the user's first organization. A wrong password and an unknown address
   * give the same 401 after the same work (a dummy hash is checked); repeated failures → 429 with a delay.
   */
  async signIn(email: string, password: string, client: ClientInfo): Promise<SignedIn> {
    const account = email.trim().toLowerCase();
    // The dummy hash is made on the first sign-in of the process whoever signs in, so that its cost does not tell
    // the first unknown address from a known one.
    const dummy = await this.dummy.get();
    await this.throttle.begin(account, client.ip);
    const found = await this.deps.credentials.findCredentials(account);
    const matches = await verifyPassword(password, found?.passwordHash ?? dummy);
    const memberships = found && matches ? await this.deps.credentials.membershipsOf(found.userId) : [];
    const user = found && matches ? await this.deps.orgs.findUser(found.userId) : null;
    // The attempt was counted as a failure when it began; only a success takes it back.
    if (!found?.passwordHash || !matches || !user || memberships.length === 0) {
      await this.recordFailedSignIn(account, found?.userId ?? null, client);
      throw invalidCredentials();
    }
    await this.throttle.succeeded(account, client.ip);
    const first = memberships[0]!;
    return this.open(user, await this.deps.orgs.getOrganization(first.organizationId), first.role, client);
  }

  /**
   * A failed sign-in, in each organization of the account it named (no password, only the address tried); an
   * address nobody has belongs to no organization, and its entry is kept for operators but listed to nobody.
   */
  private async recordFailedSignIn(email: string, userId: string | null, client: ClientInfo): Promise<void> {
    const origin: AuditOrigin = {
      actor: { type: 'user', id: userId, name: email },
      ip: client.ip,
      requestId: client.requestId ?? null,
    };
    const organizations = userId
      ? (await this.deps.credentials.membershipsOf(userId)).map((m) => m.organizationId)
      : [];
    await this.deps.database.transaction(async (tx) => {
      for (const organizationId of organizations.length > 0 ? organizations : [null]) {
        await this.deps.audit.record(tx, origin, {
          organizationId,
          action: 'session.sign_in_failed',
          target: { type: 'user', id: userId },
          changes: { email: [null, email] },
        });
      }
    });
  }

  /** Records a new session (in `tx` when given, so it commits with the change that signs the person in). */
  private async open(
    user: User,
    organization: Organization,
    role: Role,
    client: ClientInfo,
    tx?: Database,
  ): Promise<SignedIn> {
    const now = this.deps.clock.now();
    const token = randomToken(32);
    const id = newId('ses', now);
    const expiresAt = now + this.lifetimes.absoluteMs;
    await (tx ?? this.deps.database).transaction(async (db) => {
      await new SessionsRepository(db).insert({
        id,
        token_hash: sha256(token),
        user_id: user.id,
        organization_id: organization.id,
        created_at: now,
        last_seen_at: now,
        expires_at: expiresAt,
        ended_at: null,
        user_agent: client.userAgent?.slice(0, 300) ?? null,
        ip: client.ip,
      });
      await this.deps.audit.record(db, personOrigin(user, client), {
        organizationId: organization.id,
        action: 'session.sign_in',
        target: { type: 'session', id },
        changes: {},
      });
    });
    return { token, expiresAt, info: { sessionId: id, user, organization, role, csrfToken: csrfTokenOf(token) } };
  }

  /**
   * The actor of a session cookie, or null when the token is unknown, ended, idle too long, past its absolute
   * end, or its membership is gone. Records the request as `last_seen_at` (at most once a minute). A resolved
   * session is reused for up to `SESSION_CACHE_MS` without asking the database (as keys are): an end or a role
   * change made by this process applies at once, one made by another process within that time.
   */
  async authenticate(token: string): Promise<Actor | null> {
    if (token.length === 0 || token.length > 200) return null;
    const now = this.deps.clock.now();
    const hash = sha256(token);
    let cached = this.cache.get(hash);
    if (!cached || cached.until <= now) {
      const row = await new SessionsRepository(this.deps.database).findLive(hash);
      if (this.cache.size >= 10_000) this.cache.clear();
      cached = { row, until: now + SESSION_CACHE_MS };
      this.cache.set(hash, cached);
    }
    const row = cached.row;
    if (!row) return null;
    if (Number(row.expires_at) <= now || Number(row.last_seen_at) + this.lifetimes.idleMs <= now) return null;
    if (now - Number(row.last_seen_at) >= LAST_SEEN_RESOLUTION_MS) {
      row.last_seen_at = now;
      await new SessionsRepository(this.deps.database).touch(row.id, now);
    }
    return {
      organizationId: row.organization_id,
      plan: row.plan as PlanName,
      // Budgets and idempotency keys are per person for sessions ("rate limits per user").
      keyId: row.user_id,
      userId: row.user_id,
      serviceAccountId: null,
      role: row.role as Role,
      scopes: ALL_SCOPES,
      environments: ['production'],
      allEnvironments: true,
      rateLimits: SESSION_RATE_LIMITS,
      sessionId: row.id,
      name: row.user_name ?? row.email,
    };
  }

  /** Forgets resolved sessions: a session ended or a role changed in this process applies to the next request. */
  private forget(): void {
    this.cache.clear();
  }

  /** What `GET /auth/session` answers for a session actor and its token. */
  async describe(actor: Actor, token: string): Promise<SessionInfo> {
    const user = actor.userId ? await this.deps.orgs.findUser(actor.userId) : null;
    if (!user || !actor.sessionId) throw new DomainError('unauthorized', 'Sign in first.');
    return {
      sessionId: actor.sessionId,
      user,
      organization: await this.deps.orgs.getOrganization(actor.organizationId),
      role: actor.role,
      csrfToken: csrfTokenOf(token),
    };
  }

  async signOut(actor: Actor, audit?: AuditTrail): Promise<void> {
    const { userId, sessionId } = actor;
    if (userId && sessionId) {
      await this.deps.database.transaction(async (tx) => {
        if (!(await new SessionsRepository(tx).end(userId, sessionId, this.deps.clock.now()))) return;
        await audit?.record(tx, sessionEnded(actor, 'session.sign_out', sessionId));
      });
    }
    this.forget();
  }

  /** The person's live sessions, most recently used first. */
  async list(actor: Actor): Promise<SessionListItem[]> {
    if (!actor.userId) return [];
    const now = this.deps.clock.now();
    const rows = await new SessionsRepository(this.deps.database).listLive(
      actor.userId,
      now,
      now - this.lifetimes.idleMs,
    );
    return rows.map((r) => ({
      id: r.id,
      createdAt: Number(r.created_at),
      lastSeenAt: Number(r.last_seen_at),
      userAgent: r.user_agent,
      ip: r.ip,
      current: r.id === actor.sessionId,
    }));
  }

  /** Ends one of the person's own sessions; 404 for another person's or an ended one. */
  async end(actor: Actor, id: string, audit?: AuditTrail): Promise<void> {
    const userId = actor.userId;
    const ended = userId
      ? await this.deps.database.transaction(async (tx) => {
          const done = await new SessionsRepository(tx).end(userId, id, this.deps.clock.now());
          if (done) await audit?.record(tx, sessionEnded(actor, 'session.end', id));
          return done;
        })
      : false;
    this.forget();
    if (!ended) throw new DomainError('not_found', 'Session not found.');
  }

  /** A one-time reset link for the address's user (1 hour), or null when nobody has the address. */
  async createResetLink(
    email: string,
    audit?: AuditTrail,
  ): Promise<{ user: User; link: string; expiresAt: number } | null> {
    const found = await this.deps.credentials.findCredentials(email);
    const user = found ? await this.deps.orgs.findUser(found.userId) : null;
    if (!user) return null;
    const token = await this.deps.credentials.createPasswordReset(user.id, RESET_TTL_MS);
    // An operator's link opens the account: each of the person's organizations sees that one was made.
    for (const m of audit ? await this.deps.credentials.membershipsOf(user.id) : []) {
      await audit?.note({
        organizationId: m.organizationId,
        action: 'user.password_reset_link',
        target: { type: 'user', id: user.id },
        changes: {},
      });
    }
    const link = `${this.deps.publicUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
    return { user, link, expiresAt: this.deps.clock.now() + RESET_TTL_MS };
  }

  /** Mails a one-time reset link when the address has a user; says nothing either way (the route answers 202). */
  async requestPasswordReset(email: string): Promise<void> {
    const issued = await this.createResetLink(email);
    if (!issued) return;
    const { user, link } = issued;
    const intro = 'Someone (hopefully you) asked to reset your Tocsin password. Choose a new one here:';
    const outro = 'The link works once and is valid for 1 hour. If you did not ask for it, ignore this email.';
    try {
      await this.deps.mailer.sendMail({
        to: user.email,
        subject: '[Tocsin] Reset your password',
        text: `${intro}\n\n${link}\n\n${outro}`,
        html: `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(outro)}</p>`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, user: user.id }, 'could not send the password reset email');
    }
  }

  /** Sets the new password from a reset link and ends the user's sessions (but the caller's own, if any). */
  async confirmPasswordReset(
    token: string,
    password: string,
    currentSessionId: string | null,
    client?: ClientInfo,
  ): Promise<void> {
    const details: ErrorDetail[] = [];
    requirePassword(password, details);
    if (details.length > 0) throw validationFailed(details);
    const hash = await hashPassword(password);
    const now = this.deps.clock.now();
    const userId = await this.deps.credentials.resetPassword(token, hash, async (tx, id) => {
      await new SessionsRepository(tx).endAllOf(id, now, currentSessionId);
      // The person holding the link acts; only their id is known inside the transaction.
      const origin: AuditOrigin = {
        actor: { type: 'user', id, name: id },
        ip: client?.ip ?? null,
        requestId: client?.requestId ?? null,
      };
      for (const m of await this.deps.credentials.membershipsOf(id, tx)) {
        await this.deps.audit.record(tx, origin, {
          organizationId: m.organizationId,
          action: 'user.password_reset',
          target: { type: 'user', id },
          changes: { password: ['[redacted]', '[redacted]'] },
        });
      }
    });
    this.forget();
    const found = await this.deps.orgs.findUser(userId);
    if (found) await this.throttle.forgetAccount(found.email);
  }

  /** A member's new role (see CredentialsService.changeRole); their sessions act with it from the next request. */
  async changeRole(actor: Actor, userId: string, role: Role, audit?: AuditTrail): Promise<{ user: User; role: Role }> {
    const changed = await this.deps.credentials.changeRole(actor, userId, role, audit);
    this.forget();
    return changed;
  }

  lookupInvitation(token: string) {
    return this.deps.credentials.lookupInvitation(token);
  }

  /**
   * Accepts an invitation and signs in: a new address gets a user with `password` (required); an existing user
   * must prove it is them with their password (throttled like a sign-in). The membership and the session commit
   * together.
   */
  async acceptInvitation(
    input: { token: string; name?: string; password?: string },
    client: ClientInfo,
  ): Promise<SignedIn> {
    const preview = await this.deps.credentials.lookupInvitation(input.token);
    const password = input.password ?? '';
    let passwordHash: string | null = null;
    if (preview.existingUserId) {
      await this.throttle.begin(preview.email, client.ip);
      const stored = await this.deps.credentials.passwordHashOf(preview.existingUserId);
      const matches = await verifyPassword(password, stored ?? (await this.dummy.get()));
      if (!stored || !matches) {
        await this.recordFailedSignIn(preview.email, preview.existingUserId, client);
        throw invalidCredentials();
      }
      await this.throttle.succeeded(preview.email, client.ip);
    } else {
      const details: ErrorDetail[] = [];
      if (input.password === undefined) details.push({ field: 'password', issue: 'is required for a new account' });
      else requirePassword(password, details);
      if (input.name !== undefined && input.name.trim() === '')
        details.push({ field: 'name', issue: 'must not be empty' });
      if (details.length > 0) throw validationFailed(details);
      passwordHash = await hashPassword(password);
    }
    return this.deps.database.transaction(async (tx) => {
      const accepted = await this.deps.credentials.acceptInvitation(
        input.token,
        preview.existingUserId,
        { name: input.name?.trim() ?? null, passwordHash },
        tx,
      );
      await this.deps.audit.record(tx, personOrigin(accepted.user, client), {
        organizationId: accepted.organization.id,
        action: 'invitation.accept',
        target: { type: 'user', id: accepted.user.id },
        changes: { role: [null, accepted.role] },
      });
      return this.open(accepted.user, accepted.organization, accepted.role, client, tx);
    });
  }
}

/** The entry of a session ended by its person (sign-out, or ending another of their sessions). */
function sessionEnded(actor: Actor, action: string, sessionId: string) {
  return { organizationId: actor.organizationId, action, target: { type: 'session', id: sessionId }, changes: {} };
}
