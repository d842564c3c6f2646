import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import type { AccessHistoryEntry, RecordView } from '../../../workers/api';
import type { Patient } from '../../../workers/core/types';
import { SHORT_HASH_LENGTH } from '../../../workers/core/constants';
import { formatDate, formatDateTime } from '../../components/format';
import { RECORD_TYPE_LABELS } from '../../components/record-type';
import './print.css';

export interface SummaryData {
  patient: Patient;
  records: RecordView[]; // medical records, newest first
  history: AccessHistoryEntry[];
  printedAt: string;
}

// The printed page: patient, health overview, records, access history. It is drawn straight into <body> and
// only while printing, with the rest of the page hidden (print.css), so the screen's layout never prints.
export function PrintSummary({ data, onDone }: { data: SummaryData; onDone: () => void }) {
  const printed = useRef(false); // once, even when an effect runs twice (StrictMode)
  const { patient, records, history } = data;

  useEffect(() => {
    document.body.classList.add('printing-summary');
    const done = () => {
      document.body.classList.remove('printing-summary');
      onDone();
    };
    window.addEventListener('afterprint', done, { once: true });
    if (!printed.current) {
      printed.current = true;
      window.print();
    }
    return () => {
      window.removeEventListener('afterprint', done);
      document.body.classList.remove('printing-summary');
    };
  }, [onDone]);

  return createPortal(
    <article className="print-summary" aria-label="Printable summary">
      <header>
        <h1>Health record summary: {patient.name}</h1>
        <p>
          MedLedger, printed {formatDateTime(data.printedAt)}. Each record is a block of the MedLedger chain; the short hash is
          the first {SHORT_HASH_LENGTH} hex digits of its block hash.
        </p>
      </header>
      <section>
        <h2>Patient</h2>
        <dl>
          <dt>Name</dt>
          <dd>{patient.name}</dd>
          <dt>Date of birth</dt>
          <dd>{formatDate(patient.dateOfBirth)}</dd>
          <dt>Email</dt>
          <dd>{patient.email}</dd>
        </dl>
      </section>
      <section>
        <h2>Health overview</h2>
        <dl>
          <dt>Blood type</dt>
          <dd>{patient.bloodType}</dd>
          <dt>Gender</dt>
          <dd>{patient.gender}</dd>
          <dt>Allergies</dt>
          <dd>{patient.allergies.length > 0 ? patient.allergies.join(', ') : 'None recorded'}</dd>
          <dt>Emergency contact</dt>
          <dd>{patient.emergencyContact}</dd>
        </dl>
      </section>
      <section>
        <h2>Medical records ({records.length})</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Type</th>
              <th scope="col">Date</th>
              <th scope="col">Block</th>
              <th scope="col">Hash</th>
            </tr>
          </thead>
          <tbody>
            {records.map((record) => (
              <tr key={record.id}>
                <td>{record.title}</td>
                <td>{RECORD_TYPE_LABELS[record.type]}</td>
                <td>{formatDate(record.documentDate ?? record.timestamp)}</td>
                <td>#{record.blockIndex}</td>
                <td className="print-hash">{record.blockchainHash.slice(0, SHORT_HASH_LENGTH)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section>
        <h2>Emergency access history ({history.length})</h2>
        {history.length === 0 ? (
          <p>No emergency access to these records.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Doctor</th>
                <th scope="col">Reason</th>
                <th scope="col">Level</th>
                <th scope="col">Started</th>
                <th scope="col">Ended</th>
                <th scope="col">Reads</th>
              </tr>
            </thead>
            <tbody>
              {history.map((entry) => (
                <tr key={entry.grantId}>
                  <td>{entry.doctorName}</td>
                  <td>{entry.reason}</td>
                  <td>{entry.accessLevel}</td>
                  <td>{formatDateTime(entry.startedAt)}</td>
                  <td>{entry.endedAt ? formatDateTime(entry.endedAt) : 'Active'}</td>
                  <td>{entry.reads.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </article>,
    document.body,
  );
}
