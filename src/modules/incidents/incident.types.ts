/** A monitor status change decided by the state machine (check engine), handed to the incidents module. */
export interface MonitorTransition {
  organizationId: string;
  monitorId: string;
  monitorName: string;
  from: 'pending' | 'up' | 'down';
  to: 'up' | 'down';
  /** Epoch ms of the verdict. */
  at: number;
  /** For down: the failing reason, e.g. "HTTP 503 (expected 200)". */
  cause: string | null;
  executionId: string | null;
}
