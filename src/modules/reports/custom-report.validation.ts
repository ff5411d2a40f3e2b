import { DomainError, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { canSeeEnvironment, type ServiceContext } from '../auth/index.ts';
import type {
  CustomReport,
  CustomReportPatch,
  CustomReportPeriod,
  CustomReportWidget,
  Visibility,
} from './custom-report.types.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';
import { isTimeZone } from './report.period.ts';
import { resolvePeriod } from './report.request.ts';
import type { SlaTargetsService } from './sla-target.service.ts';

/** The organization's members, to check `shared_with_user_ids` (the orgs module's, through main.ts). */
export interface CustomReportMembers {
  memberIdsOf(organizationId: string): Promise<ReadonlySet<string>>;
}

export interface ValidationDeps {
  members: CustomReportMembers;
  slaTargets: SlaTargetsService;
}

/** Validated fields of a create or patch body (only those given). */
export interface Fields {
  name?: string;
  period?: CustomReportPeriod;
  timezone?: string;
  widgets?: CustomReportWidget[];
  visibility?: Visibility;
  sharedWithUserIds?: string[];
}

/**
 * The rules the route schema cannot say: names not only spaces, a valid range and time zone, widget monitors of
 * the organization in the key's environments, SLA targets it sees, shared users who are members.
 */
export async function validatedFields(
  ctx: ServiceContext,
  input: CustomReportPatch,
  deps: ValidationDeps,
): Promise<Fields> {
  const details: ErrorDetail[] = [];
  const out: Fields = {};
  if (input.name !== undefined) out.name = input.name.trim();
  if (input.timezone !== undefined) out.timezone = input.timezone;
  if (input.period !== undefined) out.period = input.period;
  if (input.period !== undefined || input.timezone !== undefined) {
    details.push(...periodIssues(input.period ?? 'last_30_days', input.timezone ?? 'UTC'));
  }
  if (input.visibility !== undefined) out.visibility = input.visibility;
  if (input.widgets !== undefined) {
    out.widgets = input.widgets.map(normalizedWidget);
    details.push(...(await widgetIssues(ctx, out.widgets, deps)));
  }
  if (input.shared_with_user_ids !== undefined) {
    out.sharedWithUserIds = input.shared_with_user_ids;
    if (input.shared_with_user_ids.length > 0) {
      const members = await deps.members.memberIdsOf(ctx.actor.organizationId);
      input.shared_with_user_ids.forEach((userId, i) => {
        if (!members.has(userId)) {
          details.push({
            field: `shared_with_user_ids[${i}]`,
            issue: `user ${userId} is not a member of this organization`,
          });
        }
      });
    }
  }
  if (details.length > 0) throw validationFailed(details);
  return out;
}

async function widgetIssues(
  ctx: ServiceContext,
  widgets: readonly CustomReportWidget[],
  deps: ValidationDeps,
): Promise<ErrorDetail[]> {
  const details: ErrorDetail[] = [];
  const monitorIds = [...new Set(widgets.flatMap((w) => w.monitor_ids ?? []))];
  const found =
    monitorIds.length === 0
      ? []
      : await new MonitorTimelineRepository(ctx.db).monitorsByIds(ctx.actor.organizationId, monitorIds);
  const usable = new Set(
    found.filter((m) => m.deletedAt === null && canSeeEnvironment(ctx.actor, m.environment)).map((m) => m.id),
  );
  const wantsTargets = widgets.some((w) => w.options?.sla_target_ids !== undefined);
  const targets = wantsTargets ? new Set((await deps.slaTargets.all(ctx)).map((t) => t.id)) : new Set();
  // The title names the section (the CSV `section` column): two sections of one name could not be told apart.
  const firstWithTitle = new Map<string, number>();
  widgets.forEach((w, i) => {
    const first = firstWithTitle.get(w.title);
    if (first === undefined) firstWithTitle.set(w.title, i);
    else details.push({ field: `widgets[${i}].title`, issue: `is already the title of widgets[${first}]` });
    (w.monitor_ids ?? []).forEach((id, j) => {
      if (!usable.has(id)) {
        details.push({
          field: `widgets[${i}].monitor_ids[${j}]`,
          issue: `monitor ${id} does not exist in this organization`,
        });
      }
    });
    const targetIds = w.options?.sla_target_ids;
    if (targetIds === undefined) return;
    if (w.kind !== 'sla') {
      details.push({ field: `widgets[${i}].options.sla_target_ids`, issue: 'applies to sla widgets only' });
      return;
    }
    targetIds.forEach((id, j) => {
      if (!targets.has(id)) {
        details.push({
          field: `widgets[${i}].options.sla_target_ids[${j}]`,
          issue: `SLA target ${id} does not exist in this organization`,
        });
      }
    });
  });
  return details;
}

function normalizedWidget(w: CustomReportWidget): CustomReportWidget {
  return {
    kind: w.kind,
    title: w.title.trim(),
    ...(w.monitor_ids !== undefined && { monitor_ids: w.monitor_ids }),
    ...(w.tags !== undefined && { tags: w.tags }),
    ...(w.options !== undefined && { options: w.options }),
  };
}

/** The range and zone as a report would resolve them; fields named as in the custom report's body. */
function periodIssues(period: CustomReportPeriod, timezone: string): ErrorDetail[] {
  if (typeof period === 'string') {
    return isTimeZone(timezone)
      ? []
      : [{ field: 'timezone', issue: 'must be an IANA time zone such as Europe/Berlin' }];
  }
  try {
    resolvePeriod({ from: period.from, to: period.to, timezone }, 0);
    return [];
  } catch (err) {
    if (!(err instanceof DomainError) || !err.details) throw err;
    return err.details.map((d) => ({ ...d, field: d.field === 'timezone' ? 'timezone' : `period.${d.field}` }));
  }
}

export function checkPeriod(period: CustomReportPeriod, timezone: string): void {
  const details = periodIssues(period, timezone);
  if (details.length > 0) throw validationFailed(details);
}

/** Rules across fields, checked on the merged record: who may hold which visibility, and the shared list. */
export function checkConsistent(ctx: ServiceContext, r: CustomReport): void {
  const details: ErrorDetail[] = [];
  if (ctx.actor.userId === null && r.visibility !== 'organization') {
    details.push({
      field: 'visibility',
      issue: 'a service account’s key can only make organization reports (it acts as no person)',
    });
  } else if (!r.ownerId.startsWith('usr_') && r.visibility !== 'organization') {
    // Its owner sees organization reports only: private or shared, it would be nobody's.
    details.push({ field: 'visibility', issue: 'a report owned by a service account stays organization-wide' });
  }
  if (r.visibility !== 'shared' && r.sharedWithUserIds.length > 0) {
    details.push({ field: 'shared_with_user_ids', issue: 'applies only with visibility shared' });
  }
  if (details.length > 0) throw validationFailed(details);
}
