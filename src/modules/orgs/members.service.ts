import type { AuditTrail } from '../audit/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { DomainError, notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail/index.ts';
import type { OrgsService } from './orgs.service.ts';
import {
  isAdminRole,
  ROLES,
  type Invitation as PendingInvitation,
  type OrgActor as Actor,
  type Organization,
  type Role,
  type User,
} from './orgs.types.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface MembersServiceDeps {
  orgs: OrgsService;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  /** The configured region catalogue: what an organization's default region may be. */
  regions: readonly string[];
}

export interface MemberView {
  user: User;
  role: Role;
}

/** The members list: accepted members, and pending invitations (which name no user). */
export interface MembersList {
  members: MemberView[];
  invitations: PendingInvitation[];
}

/** What following a verification link did (invitation links are accepted by POST /auth/invitations/accept). */
export interface FollowedLink {
  kind: 'email_verified';
  user: User;
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
  if (!isAdminRole(actor.role))
    throw new DomainError('forbidden', `${what} is for the organization owner or an admin.`);
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  throw validationFailed([{ field: 'body', issue: 'must be a JSON object' }]);
}

/** Members, invitations, email verification and the organization-wide email channel setting. */
export class MembersService {
  private readonly deps: MembersServiceDeps;
  constructor(deps: MembersServiceDeps) {
    this.deps = deps;
  }

  getOrganization(actor: Actor): Promise<Organization> {
    return this.deps.orgs.getOrganization(actor.organizationId);
  }

  async updateOrganization(actor: Actor, body: unknown, audit?: AuditTrail): Promise<Organization> {
    requireAdmin(actor, 'Changing organization settings');
    const patch = objectBody(body);
    const details: ErrorDetail[] = Object.keys(patch)
      .filter((k) => k !== 'email_alerts_enabled' && k !== 'default_region')
      .map((k) => ({ field: k, issue: 'is not a field that can be changed here' }));
    if (patch.email_alerts_enabled !== undefined && typeof patch.email_alerts_enabled !== 'boolean') {
      details.push({ field: 'email_alerts_enabled', issue: 'must be true or false' });
    }
    const region = patch.default_region;
    if (region !== undefined && (typeof region !== 'string' || !this.deps.regions.includes(region))) {
      details.push({
        field: 'default_region',
        issue: `must be one of the configured regions: ${this.deps.regions.join(', ')}`,
      });
    }
    if (details.length > 0) throw validationFailed(details);
    const settings = {
      ...(typeof patch.email_alerts_enabled === 'boolean' && { emailAlertsEnabled: patch.email_alerts_enabled }),
      ...(typeof region === 'string' && { defaultRegion: region }),
    };
    if (Object.keys(settings).length > 0) return this.deps.orgs.updateSettings(actor.organizationId, settings, audit);
    return this.getOrganization(actor);
  }

  async list(actor: Actor): Promise<MembersList> {
    const [members, invitations] = await Promise.all([
      this.deps.orgs.listMembers(actor.organizationId),
      this.deps.orgs.listInvitations(actor.organizationId),
    ]);
    return { members, invitations };
  }

  /**
   * Records an invitation and mails its one-time link. Whether a user already has the address is neither looked
   * at nor told: the membership (and the user, for a new address) comes into being when the link is followed.
   */
  async invite(actor: Actor, body: unknown, audit?: AuditTrail): Promise<Invitation> {
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
    const issued = await this.deps.orgs.createInvitation(
      {
        organizationId: actor.organizationId,
        email: input.email as string,
        name: (input.name as string | undefined) ?? null,
        role: role as Role,
        invitedBy: actor.userId ?? actor.keyId,
      },
      undefined,
      audit,
    );
    await this.sendInvitation(issued.invitation, issued.token);
    return { email: issued.invitation.email, name: issued.invitation.name, role: issued.invitation.role };
  }

  /** A new link for a pending invitation, mailed again (the previous link stops working); 404 when there is none. */
  async resendInvitation(actor: Actor, invitationId: string, audit?: AuditTrail): Promise<void> {
    requireAdmin(actor, 'Resending invitations');
    const issued = await this.deps.orgs.renewInvitation(actor.organizationId, invitationId, undefined, audit);
    await this.sendInvitation(issued.invitation, issued.token);
  }

  async revokeInvitation(actor: Actor, invitationId: string, audit?: AuditTrail): Promise<void> {
    requireAdmin(actor, 'Revoking invitations');
    await this.deps.orgs.revokeInvitation(actor.organizationId, invitationId, audit);
  }

  async resendVerification(actor: Actor, userId: string, audit?: AuditTrail): Promise<void> {
    requireAdmin(actor, 'Resending verification mails');
    const membership = await this.deps.orgs.findMembership(actor.organizationId, userId);
    const user = membership ? await this.deps.orgs.findUser(userId) : null;
    if (!user) throw notFound('Member');
    if (user.emailVerifiedAt !== null) throw new DomainError('conflict', `${user.email} is already verified.`);
    await this.sendVerification(user);
    await audit?.note({
      organizationId: actor.organizationId,
      action: 'member.verification_resend',
      target: { type: 'user', id: userId },
      changes: {},
    });
  }

  /** Mails the one-time link of an invitation; the same mail whoever has the address. */
  private async sendInvitation(invitation: PendingInvitation, token: string): Promise<void> {
    const organization = await this.deps.orgs.getOrganization(invitation.organizationId);
    // A web-app page that shows the invitation and accepts it only when the person confirms (a POST): mail
    // scanners that fetch links accept nothing.
    const link = `${this.baseUrl()}/accept-invitation?token=${encodeURIComponent(token)}`;
    const intro = `You are invited to join ${organization.name} on Tocsin and receive its alert emails. Open this link to accept (you choose a password, or sign in if you already have an account):`;
    try {
      await this.deps.mailer.sendMail({
        to: invitation.email,
        subject: `[Tocsin] Invitation to ${organization.name}`,
        text: `${intro}\n\n${link}\n\nThe link works once and is valid for 7 days. If you did not expect it, ignore this email.`,
        html: `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>The link works once and is valid for 7 days. If you did not expect it, ignore this email.</p>`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    } catch (err) {
      this.deps.logger.warn(
        { err: (err as Error).message, invitation: invitation.id },
        'could not send the invitation email',
      );
    }
  }

  private baseUrl(): string {
    return this.deps.publicUrl.replace(/\/+$/, '');
  }

  private linkFor(token: string): string {
    return `${this.baseUrl()}/verify-email?token=${encodeURIComponent(token)}`;
  }

  /** Mails the user a single-use link to GET /verify-email (or logs it when no SMTP is configured). */
  async sendVerification(user: User): Promise<string> {
    const token = await this.deps.orgs.createEmailVerification(user.id);
    const link = this.linkFor(token);
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

  /**
   * Follows a member's verification link (GET /verify-email): verifies the address. Null when the token is
   * unknown, used or expired. An invitation's token does nothing here: invitations are accepted by a POST.
   */
  async followLink(token: string): Promise<FollowedLink | null> {
    const user = await this.deps.orgs.verifyEmail(token);
    return user ? { kind: 'email_verified', user } : null;
  }
}
