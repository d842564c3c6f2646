// Reading a block's record in tests without narrowing by hand at each use.
import type { ChainRecord, EmergencyDetails } from '../../workers/core/types';

export function emergencyOf(record: ChainRecord): EmergencyDetails | undefined {
  return record.type === 'emergency_access' ? record.emergency : undefined;
}

export function documentIdsOf(record: ChainRecord): string[] {
  return 'files' in record ? record.files.map((file) => file.documentId) : [];
}
