import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, useLocation } from 'react-router-dom';
import type { EmergencyGrant } from '../../workers/core/types';
import { accessLevelLabel } from '../components/access-levels';
import { Countdown } from '../components/countdown';
import { expiredText } from '../components/grant-expiry';
import { Icon } from '../components/icon';
import { useHoldUpdates } from '../components/update-holds';
import { useActiveGrants } from '../ledger/use-active-grants';
import { userName } from '../components/user-name';

export const EMERGENCY_PATH = '/doctor/emergency';

// A doctor's open emergency sessions, on every screen under the top bar: patient, level, time left, way back;
// and, once one runs out, a word saying so, kept until dismissed or the next move to another screen.
export function ActiveGrantBar() {
  const grants = useActiveGrants();
  const { pathname } = useLocation();
  const [expired, setExpired] = useState<{ text: string; path: string } | null>(null);
  const active = grants.data ?? [];
  useHoldUpdates(active.length > 0, 'End the emergency session first.'); // on every screen the session is open on
  const expire = (grant: EmergencyGrant) => {
    if (pathname !== EMERGENCY_PATH) setExpired({ text: expiredText(grant), path: pathname });
    grants.reload();
  };
  const note = expired?.path === pathname ? expired.text : null;
  if (active.length === 0 && !note) return null;
  return (
    <>
      {note ? (
        <Alert variant="secondary" className="active-grant-ended" role="status" dismissible onClose={() => setExpired(null)}>
          {note}
        </Alert>
      ) : null}
      {active.length === 0 ? null : (
        <section className="active-grant-bar" aria-label="Active emergency access">
          {active.map((grant) => {
            const level = accessLevelLabel(grant.accessLevel);
            return (
              <div key={grant.id} className="active-grant-bar-row">
                <span className="active-grant-bar-text">
                  <span className="pulse-dot pulse-dot-danger me-2" aria-hidden="true" />
                  <strong className="active-grant-bar-label">Emergency access active:</strong>{' '}
                  <bdi>{userName(grant.patientId)}</bdi>
                  <span className="active-grant-bar-level">{level} access</span>
                </span>
                <span className="active-grant-bar-time">
                  <Icon name="clock" size={14} />
                  <Countdown expiresAt={grant.expiresAt} onExpire={() => expire(grant)} className="active-grant-bar-countdown" />
                  <span className="active-grant-bar-narrow-hidden"> left</span>
                </span>
                {pathname === EMERGENCY_PATH ? null : (
                  <Link to={EMERGENCY_PATH} className="active-grant-bar-link">
                    <span className="active-grant-bar-narrow-hidden">Open </span>SOS panel
                  </Link>
                )}
              </div>
            );
          })}
        </section>
      )}
    </>
  );
}
