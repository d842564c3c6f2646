// lint-as: src/features/upload/lint-fixture.ts
// One feature reaching into another: what two features share belongs in src/components/ or src/ledger/.
import { formatBytes } from '../../components/format';
import { RecordFilters } from '../records/record-filters';
import { checkFile } from './check-file';

export const fixture = { formatBytes, RecordFilters, checkFile };
