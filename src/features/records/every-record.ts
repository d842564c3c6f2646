import type { RecordView } from '../../../workers/api';
import type { LedgerRemote } from '../../ledger/ledger-context';

// Every record of the patient, newest first, asked a page at a time (the printed summary holds them all). A record
// added meanwhile moves the later pages down by one: a record met twice is kept once.
export async function everyRecord(service: LedgerRemote, patientId: string): Promise<RecordView[]> {
  const records = new Map<string, RecordView>();
  for (let page = 1; ; page++) {
    const answer = await service.listRecords(patientId, { page });
    for (const record of answer.records) if (!records.has(record.id)) records.set(record.id, record);
    if (answer.page * answer.pageSize >= answer.total || answer.page < page) return [...records.values()];
  }
}
