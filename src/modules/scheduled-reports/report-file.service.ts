import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { notFound } from '../../platform/errors.ts';
import { isId } from '../../platform/ids.ts';
import { tokenHash } from './scheduled-report.runner.ts';
import type { ReportFile } from './scheduled-report.types.ts';
import { ScheduledReportsRepository } from './scheduled-reports.repository.ts';

/**
 * The files of scheduled report runs: served by GET /api/v1/report-files/{id}?token= without an API key while the
 * token lives, and read by the alert pipeline to attach them to mails.
 */
export class ReportFilesService {
  private readonly database: Database;
  private readonly clock: Clock;
  constructor(deps: { database: Database; clock: Clock }) {
    this.database = deps.database;
    this.clock = deps.clock;
  }

  /**
   * The file, when the token is the one its link was made with and has not expired. A missing file, a wrong token
   * and an expired one all answer the same not_found, so a link tells nothing about other files.
   */
  async open(id: string, token: string): Promise<ReportFile> {
    const file = isId(id, 'rpf') ? await new ScheduledReportsRepository(this.database).findFile(id) : null;
    const given = Buffer.from(tokenHash(token), 'hex');
    const stored = Buffer.from(file?.tokenHash ?? '0'.repeat(64), 'hex');
    const matches = given.length === stored.length && timingSafeEqual(given, stored);
    if (!file || !matches || file.expiresAt <= this.clock.now()) throw notFound('Report file');
    return file;
  }

  /** The bytes of a file that still exists (for mail attachments), or null. */
  async read(id: string): Promise<Buffer | null> {
    const file = await new ScheduledReportsRepository(this.database).findFile(id);
    return file && file.expiresAt > this.clock.now() ? file.body : null;
  }

  /** Removes the files whose links have expired; returns how many. */
  async removeExpired(): Promise<number> {
    return new ScheduledReportsRepository(this.database).deleteExpiredFiles(this.clock.now());
  }

  async nextExpiry(): Promise<number | null> {
    return new ScheduledReportsRepository(this.database).nextFileExpiry();
  }
}
