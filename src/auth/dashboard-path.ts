import type { Role } from '../../workers/core/types';

export function dashboardPath(role: Role): string {
  return role === 'patient' ? '/patient/dashboard' : '/doctor/dashboard';
}
