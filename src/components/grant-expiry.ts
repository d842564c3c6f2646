import type { EmergencyGrant } from '../../workers/core/types';
import { formatTime } from './format';
import { userName } from './user-name';

// What the doctor is told when an emergency session runs out, on the SOS panel and under the top bar alike.
export function expiredText(grant: EmergencyGrant): string {
  return `Emergency access to ${userName(grant.patientId)} ended at ${formatTime(grant.expiresAt)} (expired)`;
}
