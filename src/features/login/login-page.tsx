import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import { DEMO_PASSWORD } from '../../../workers/core/constants';
import { DEMO_ACCOUNTS, USERS } from '../../../workers/core/directory';
import { MESSAGES } from '../../../workers/core/errors';
import type { Role } from '../../../workers/core/types';
import { useSession } from '../../auth/use-session';
import { Icon } from '../../components/icon';
import { loginErrorMessage } from './login-error-message';
import { clearSignInNotice, peekSignInNotice, subscribeSignInNotice } from '../../components/sign-in-notice';
import { ResetLocalData } from './reset-local-data';
import { useHydrated } from '../../components/use-hydrated';

const noNotice = () => null; // the pre-rendered screen holds no word: it comes with the next render

const FEATURES = [
  { icon: 'box', text: 'Every record sealed in a tamper-evident block' },
  { icon: 'lock', text: 'Documents encrypted with AES-256 in your browser' },
  { icon: 'alert', text: 'Emergency access that leaves an audit trail' },
] as const;

export function LoginPage() {
  const { signIn } = useSession();
  const [role, setRole] = useState<Role>('patient');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const left = useSyncExternalStore(subscribeSignInNotice, peekSignInNotice, noNotice); // why the user was signed out
  const [resetNotice, setResetNotice] = useState<string | null>(null);
  const notice = resetNotice ?? left;

  // the build's copy of this screen (src/start/prerender-login.tsx) is disabled until React has hydrated it
  const live = useHydrated();

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    // required + type=email: the browser names the problem on the field
    if (!event.currentTarget.checkValidity()) {
      event.currentTarget.reportValidity();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await signIn(email.trim(), password, role);
      clearSignInNotice(); // said until now
      // the guard of / now sends the user to their dashboard
    } catch (caught) {
      setError(loginErrorMessage(caught));
      setBusy(false);
    }
  };

  const fillDemo = () => {
    setEmail(DEMO_ACCOUNTS[role]);
    setPassword(DEMO_PASSWORD);
    setError(null);
  };

  return (
    <main className="login-page">
      <div className="login-card">
        <div className="login-hero">
          <div className="login-brand">
            <span className="brand-mark brand-mark-lg">
              <Icon name="shield" size={24} />
            </span>
            MedLedger
          </div>
          <p className="login-tagline">Your medical records, secured on a blockchain.</p>
          <ul className="login-features">
            {FEATURES.map((feature) => (
              <li key={feature.text}>
                <Icon name={feature.icon} size={18} />
                {feature.text}
              </li>
            ))}
          </ul>
        </div>

        <div className="login-form">
          <h1 className="h3 mb-1">Sign in</h1>
          <p className="text-body-secondary mb-4">Choose your account type to continue.</p>

          <Form onSubmit={(event) => void submit(event)} aria-label="Sign in" aria-busy={!live}>
            <fieldset disabled={!live}>
              <fieldset className="mb-3">
                <legend className="form-label fs-6">Account type</legend>
                {/* the radio inside takes focus: tabIndex -1 keeps each label from being a second tab stop */}
                <ToggleButtonGroup
                  type="radio"
                  name="role"
                  value={role}
                  onChange={(value: Role) => setRole(value)}
                  className="w-100 role-toggle"
                >
                  <ToggleButton id="role-patient" value="patient" variant="outline-primary" tabIndex={-1}>
                    <Icon name="user" size={16} /> Patient
                  </ToggleButton>
                  <ToggleButton id="role-doctor" value="doctor" variant="outline-primary" tabIndex={-1}>
                    <Icon name="activity" size={16} /> Doctor
                  </ToggleButton>
                </ToggleButtonGroup>
              </fieldset>

              <Form.Group className="mb-3" controlId="login-email">
                <Form.Label>Email</Form.Label>
                <Form.Control
                  type="email"
                  required
                  autoComplete="username"
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  placeholder="name@example.com"
                />
              </Form.Group>

              <Form.Group className="mb-3" controlId="login-password">
                <Form.Label>Password</Form.Label>
                <Form.Control
                  type="password"
                  required
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                />
              </Form.Group>

              {notice && !error ? (
                <Alert variant="info" role="status" className="py-2">
                  {notice}
                </Alert>
              ) : null}

              {error ? (
                <>
                  <Alert variant="danger" role="alert" ref={errorRef} tabIndex={-1} className="py-2">
                    {error}
                  </Alert>
                  {error !== MESSAGES.invalidCredentials && !error.startsWith('Please select the correct user type') ? (
                    <ResetLocalData
                      onReset={() => {
                        setError(null);
                        setResetNotice(
                          'The local data was reset: this browser starts over with the demo records. Sign in again.',
                        );
                      }}
                    />
                  ) : null}
                </>
              ) : null}

              <div className="d-grid gap-2">
                <Button type="submit" variant="primary" size="lg" disabled={busy}>
                  {busy ? 'Signing in...' : 'Sign In'}
                </Button>
                <Button type="button" variant="outline-secondary" onClick={fillDemo} disabled={busy}>
                  Fill Demo Credentials
                </Button>
              </div>
            </fieldset>
          </Form>

          <section className="demo-accounts" aria-labelledby="demo-accounts-title">
            <h2 id="demo-accounts-title" className="demo-accounts-title">
              Demo accounts
            </h2>
            <p className="login-note">
              <Icon name="lock" size={14} /> Password for every account: <code>{DEMO_PASSWORD}</code>
            </p>
            <ul className="demo-accounts-list">
              {USERS.map((user) => (
                <li key={user.id}>
                  <span className="demo-account-name">{user.name}</span>
                  <span className="demo-account-role">{user.role === 'patient' ? 'Patient' : 'Doctor'}</span>
                  <span className="demo-account-email">{user.email}</span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </main>
  );
}
