import { Link, useLocation } from 'react-router-dom';
import { accessLevelLabel } from '../components/access-levels';
import { Countdown } from '../components/countdown';
import { Icon } from '../components/icon';
import { useHoldUpdates } from '../components/update-holds';
import { useActiveGrants } from '../ledger/use-active-grants';
import { userName } from '../components/user-name';

export const EMERGENCY_PATH = '/doctor/emergency';

// A doctor's open emergency sessions, on every screen under the top bar: patient, level, time left, way back.
export function ActiveGrantBar() {
  const grants = useActiveGrants();
  const { pathname } = useLocation();
  const active = grants.data ?? [];
  useHoldUpdates(active.length > 0, 'End the emergency session first.'); // on every screen the session is open on
  if (active.length === 0) return null;
  return (
    <section className="active-grant-bar" aria-label="Active emergency access">
      {active.map((grant) => {
        const level = accessLevelLabel(grant.accessLevel);
        return (
          <div key={grant.id} className="active-grant-bar-row">
            <span className="active-grant-bar-text">
              <span className="pulse-dot pulse-dot-danger me-2" aria-hidden="true" />
              <strong>Emergency access active:</strong> <bdi>{userName(grant.patientId)}</bdi>
              <span className="active-grant-bar-level">{level} access</span>
            </span>
            <span className="active-grant-bar-time">
              <Icon name="clock" size={14} />
              <Countdown expiresAt={grant.expiresAt} onExpire={grants.reload} className="active-grant-bar-countdown" /> left
            </span>
            {pathname === EMERGENCY_PATH ? null : (
              <Link to={EMERGENCY_PATH} className="active-grant-bar-link">
                Open SOS panel
              </Link>
            )}
          </div>
        );
      })}
    </section>
  );
}
