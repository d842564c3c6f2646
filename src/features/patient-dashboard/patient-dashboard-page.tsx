import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';
import { HEALTH_SCORE, NEXT_APPOINTMENT } from '../../../workers/core/constants';
import { chainIntegrity } from '../../components/chain-integrity';
import { ChainVerdictValue, chainChecking } from '../../components/chain-check-progress';
import { DeviceOnlyNote } from '../../components/device-only-note';
import { formatDate } from '../../components/format';
import { LoadError } from '../../components/load-error';
import { PageSpinner } from '../../components/page-spinner';
import { RecordList } from '../../components/record-list';
import { DetailList, healthOverviewFields } from '../../components/detail-list';
import { SectionCard } from '../../components/section-card';
import { StatCard } from '../../components/stat-card';
import { syncBrief } from '../../components/sync-words';
import { useChainStatus } from '../../ledger/use-chain-status';
import { useSyncStatus } from '../../ledger/use-sync-status';
import { useNamedQuery } from '../../ledger/use-ledger-query';
import { PATIENT_OVERVIEW } from '../../ledger/shared-queries';
import { EmergencyAccessNotice } from './emergency-access-notice';

export function PatientDashboardPage() {
  // Medical records and their count, plus the alert of emergency accesses (grants and reads).
  const query = useNamedQuery(PATIENT_OVERVIEW);
  const status = useChainStatus();
  const sync = useSyncStatus().data;

  if (!query.data || !status.data) {
    const error = query.error ?? status.error;
    return error ? (
      <LoadError error={error} what="your dashboard" onRetry={query.error ? query.reload : status.reload} />
    ) : (
      <PageSpinner label="Loading your dashboard" />
    );
  }

  const overview = query.data;
  const chain = status.data;
  const { patient } = overview;

  return (
    <>
      <div className="page-header">
        <h1 className="page-title">Welcome back, {patient.name}</h1>
        <p className="page-subtitle">
          Your health records at a glance. Blocks in the records chain: <strong>{chain.height}</strong>
        </p>
      </div>

      <EmergencyAccessNotice entries={overview.newEmergencyAccesses} />

      <Row xs={2} xl={4} className="g-3 mb-4">
        <Col>
          <StatCard label="Total Records" value={overview.totalRecords} icon="file" />
        </Col>
        <Col>
          <StatCard
            label="Last Upload"
            value={overview.lastUpload ? formatDate(overview.lastUpload) : 'None'}
            icon="upload"
            tone="info"
          />
        </Col>
        <Col>
          <StatCard label="Next Appointment" value={NEXT_APPOINTMENT} icon="calendar" tone="warning" sample />
        </Col>
        <Col>
          <StatCard label="Health Score" value={HEALTH_SCORE} icon="heart" tone="success" sample />
        </Col>
      </Row>

      <Row className="g-3">
        <Col lg={8}>
          <SectionCard
            title="Recent Medical Records"
            icon="file"
            flush
            action={
              <Link to="/patient/upload" className="btn btn-sm btn-outline-primary">
                Upload
              </Link>
            }
          >
            <DeviceOnlyNote />
            <RecordList
              records={overview.recent}
              checking={chainChecking(chain)}
              empty={
                <>
                  No medical records yet. <Link to="/patient/upload">Upload your first document</Link>
                </>
              }
            />
          </SectionCard>
        </Col>
        <Col lg={4} className="d-flex flex-column gap-3">
          <SectionCard title="Health Overview" icon="heart">
            <DetailList stacked fields={healthOverviewFields(patient)} />
          </SectionCard>
          <SectionCard title="Blockchain Status" icon="box">
            <dl className="detail-list">
              <div>
                <dt>Total Blocks</dt>
                <dd>{chain.height}</dd>
              </div>
              <div>
                <dt>Chain Status</dt>
                <ChainVerdictValue status={chain} className="fw-semibold" />
              </div>
              {chain.firstInvalid ? (
                <div>
                  <dt>First Bad Block</dt>
                  <dd>
                    {chain.firstInvalid.item ?? `#${chain.firstInvalid.index}`}: {chain.firstInvalid.reason}
                  </dd>
                </div>
              ) : null}
              <div>
                <dt>Integrity</dt>
                <dd>{chainIntegrity(chain)}</dd>
              </div>
              <div>
                <dt>Network</dt>
                <dd className="text-success fw-semibold">
                  <span className="pulse-dot" aria-hidden="true" /> Active{' '}
                  <span className="text-body-secondary fw-normal" data-sync-state={sync?.state}>
                    ({sync ? syncBrief(sync) : 'checking the link'})
                  </span>
                </dd>
              </div>
            </dl>
          </SectionCard>
        </Col>
      </Row>
    </>
  );
}
