import { useRef } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import { useSearchParams } from 'react-router-dom';
import { accessLevelText } from '../../components/access-levels';
import { Icon } from '../../components/icon';
import { InitialsAvatar } from '../../components/initials-avatar';
import { LoadError } from '../../components/load-error';
import { PageSpinner } from '../../components/page-spinner';
import { SectionCard } from '../../components/section-card';
import { ShareExpiry } from '../../components/share-expiry';
import { useReloadAtExpiry } from '../../components/use-reload-at-expiry';
import { useNamedQuery } from '../../ledger/use-ledger-query';
import { SHARED_WITH_ME } from '../../ledger/shared-queries';
import { SharedRecords } from './shared-records';

// Patients who shared their records with this doctor (active shares only), each openable in place. The open share is
// in the URL (?share=<id>), so Back closes it and a kept link asks the worker again, which refuses an ended share.
export function SharedWithMe() {
  const query = useNamedQuery(SHARED_WITH_ME);
  const [params, setParams] = useSearchParams();
  const openedId = params.get('share');
  const openers = useRef(new Map<string, HTMLButtonElement>());
  useReloadAtExpiry(query.data?.map((entry) => entry.share.expiresAt) ?? [], query.reload);

  const open = (shareId: string) => setParams({ share: shareId });
  const close = () => {
    setParams({});
    if (openedId) openers.current.get(openedId)?.focus(); // back to where the doctor opened it, while it is still listed
  };

  return (
    <>
      <SectionCard title="Shared with me" icon="share" flush>
        <p className="other-patients-note">
          Patients who shared their records with you. Each read is recorded on the chain and shown to the patient.
        </p>
        {!query.data ? (
          query.error ? (
            <div className="p-3">
              <LoadError error={query.error} what="the records shared with you" onRetry={query.reload} />
            </div>
          ) : (
            <PageSpinner label="Loading the records shared with you" />
          )
        ) : query.data.length === 0 ? (
          <div className="empty-state">No patient is sharing records with you.</div>
        ) : (
          <ListGroup variant="flush" as="ul">
            {query.data.map(({ share, patient, opened }) => (
              <ListGroup.Item as="li" key={share.id} className="patient-item shared-item">
                <InitialsAvatar name={patient.name} soft />
                <div className="min-w-0 flex-grow-1">
                  <div className="fw-semibold">
                    {patient.name} <span className="text-body-secondary fw-normal">({patient.id})</span>
                    {opened ? null : (
                      <Badge bg="primary" className="ms-2">
                        New
                      </Badge>
                    )}
                  </div>
                  <div className="record-meta">
                    <span>{accessLevelText(share.accessLevel)}</span>
                    <span>
                      {share.expiresAt === null ? null : 'Until '}
                      <ShareExpiry expiresAt={share.expiresAt} />
                    </span>
                  </div>
                  {share.note ? (
                    <p className="shared-note">
                      <span className="shared-note-term">Note:</span> {share.note}
                    </p>
                  ) : null}
                </div>
                <Button
                  size="sm"
                  variant="outline-primary"
                  className="shared-open"
                  ref={(button: HTMLButtonElement | null) => {
                    if (button) openers.current.set(share.id, button);
                    else openers.current.delete(share.id);
                  }}
                  onClick={() => open(share.id)}
                  aria-label={`Open shared records of ${patient.name}`}
                >
                  <Icon name="file" size={14} /> Open shared records
                </Button>
              </ListGroup.Item>
            ))}
          </ListGroup>
        )}
      </SectionCard>
      {openedId ? (
        <SharedRecords
          key={openedId}
          shareId={openedId}
          patient={query.data?.find((entry) => entry.share.id === openedId)?.patient}
          onClose={close}
        />
      ) : null}
    </>
  );
}
