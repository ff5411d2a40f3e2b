import type { Tocsin } from '../main.ts';
import type { AuditTrail } from '../modules/audit/index.ts';

/** The audit recorder of an operator command: actor type `system`, named by the command (no address, no request). */
export function cliTrail(tocsin: Tocsin, command: string): AuditTrail {
  return tocsin.services.audit.trail({
    actor: { type: 'system', id: null, name: `tocsin ${command}` },
    ip: null,
    requestId: null,
  });
}
