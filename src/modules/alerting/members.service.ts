import type { Clock } from '../../platform/clock.ts';
import { DomainError, notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { isAdmin, type Actor } from '../auth/index.ts';
import { ROLES, type Organization, type OrgsService, type Role, type User } from '../orgs/index.ts';
import type { Mailer } from './destinations/index.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface MembersServiceDeps {
  orgs: OrgsService;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
}

export interface MemberView {
  user: User;
  role: Role;
}

/**
 * What an invitation answers: only what the inviter sent. Nothing about the person behind the address (their
 * user id, name or verification), so inviting a user of another organization reads the same as inviting an
 * unknown address.
 */
export interface Invitation {
  email: string;
  name: string | null;
  role: Role;
}

function requireAdmin(actor: Actor, what: string): void {
  if (!isAdmin(actor)) throw new DomainError('forbidden', `${what} is for the organization owner or an admin.`);
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  throw validationFailed([{ field: 'body', issue: 'must be a JSON object' }]);
}

/** Members, email verification and the organization-wide email channel setting. */
export class MembersService {
  private readonly deps: MembersServiceDeps;
  constructor(deps: MembersServiceDeps) {
    this.deps = deps;
  }

  getOrganization(actor: Actor): Promise<Organization> {
    return this.deps.orgs.getOrganization(actor.organizationId);
  }

  async updateOrganization(actor: Actor, body: unknown): Promise<Organization> {
    requireAdmin(actor, 'Changing organization settings');
    const patch = objectBody(body);
    const details: ErrorDetail[] = Object.keys(patch)
      .filter((k) => k !== 'email_alerts_enabled')
      .map((k) => ({ field: k, issue: 'is not a field that can be changed here' }));
    if (patch.email_alerts_enabled !== undefined && typeof patch.email_alerts_enabled !== 'boolean') {
      details.push({ field: 'email_alerts_enabled', issue: 'must be true or false' });
    }
    if (details.length > 0) throw validationFailed(details);
    if (typeof patch.email_alerts_enabled === 'boolean')
      return this.deps.orgs.setEmailAlertsEnabled(actor.organizationId, patch.email_alerts_enabled);
    return this.getOrganization(actor);
  }

  async list(actor: Actor): Promise<MemberView[]> {
    return this.deps.orgs.listMembers(actor.organizationId);
  }

  /** Adds a member by email (creating the user if needed) and sends the verification mail when not yet verified. */
  async invite(actor: Actor, body: unknown): Promise<Invitation> {
    requireAdmin(actor, 'Inviting members');
    const input = objectBody(body);
    const details: ErrorDetail[] = Object.keys(input)
      .filter((k) => !['email', 'role', 'name'].includes(k))
      .map((k) => ({ field: k, issue: 'is not a known field for members' }));
    if (typeof input.email !== 'string') details.push({ field: 'email', issue: 'is required' });
    const role = input.role ?? 'member';
    if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role))
      details.push({ field: 'role', issue: `must be one of ${ROLES.join(', ')}` });
    else if (role === 'owner' && actor.role !== 'owner')
      details.push({ field: 'role', issue: 'only an owner may add another owner' });
    if (input.name !== undefined && typeof input.name !== 'string')
      details.push({ field: 'name', issue: 'must be a string' });
    if (details.length > 0) throw validationFailed(details);
    const user = await this.deps.orgs.ensureUser({
      email: input.email as string,
      name: (input.name as string | undefined) ?? null,
    });
    if (await this.deps.orgs.findMembership(actor.organizationId, user.id)) {
      throw new DomainError('conflict', `${user.email} is already a member of this organization.`);
    }
    await this.deps.orgs.addMember(actor.organizationId, user.id, role as Role);
    if (user.emailVerifiedAt === null) await this.sendVerification(user);
    return { email: user.email, name: (input.name as string | undefined) ?? null, role: role as Role };
  }

  async resendVerification(actor: Actor, userId: string): Promise<void> {
    requireAdmin(actor, 'Resending verification mails');
    const membership = await this.deps.orgs.findMembership(actor.organizationId, userId);
    const user = membership ? await this.deps.orgs.findUser(userId) : null;
    if (!user) throw notFound('Member');
    if (user.emailVerifiedAt !== null) throw new DomainError('conflict', `${user.email} is already verified.`);
    await this.sendVerification(user);
  }

  /** Mails the user a single-use link to GET /verify-email (or logs it when no SMTP is configured). */
  async sendVerification(user: User): Promise<string> {
    const token = await this.deps.orgs.createEmailVerification(user.id);
    const link = `${this.deps.publicUrl.replace(/\/+$/, '')}/verify-email?token=${encodeURIComponent(token)}`;
    const text = `Confirm your email address for Tocsin alerts:\n\n${link}\n\nThe link is valid for 7 days. Until you confirm, you receive no alert emails.`;
    try {
      await this.deps.mailer.sendMail({
        to: user.email,
        subject: '[Tocsin] Confirm your email address',
        text,
        html: `<p>Confirm your email address for Tocsin alerts:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>The link is valid for 7 days. Until you confirm, you receive no alert emails.</p>`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, user: user.id }, 'could not send the verification email');
    }
    return link;
  }

  verifyEmail(token: string): Promise<User | null> {
    return this.deps.orgs.verifyEmail(token);
  }
}
