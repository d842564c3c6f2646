import { Fragment, useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { DEMO_PASSWORD } from '../../../workers/core/constants';
import { DEMO_ACCOUNTS, USERS } from '../../../workers/core/directory';
import { MESSAGES } from '../../../workers/core/errors';
import { peekHeldSignIn, signInFieldsOf, takeHeldSignIn, type SignInFields } from '../../auth/held-sign-in';
import { useSession } from '../../auth/use-session';
import { EmailText } from '../../components/email-text';
import { Icon } from '../../components/icon';
import { loginErrorMessage } from './login-error-message';
import { clearSignInNotice, peekSignInNotice, subscribeSignInNotice } from '../../components/sign-in-notice';
import { ResetLocalData } from './reset-local-data';
import { useHydrated } from '../../components/use-hydrated';

const noNotice = () => null; // the pre-rendered screen holds no word: it comes with the next render
const SIGNING_IN = 'Signing in...';

const FEATURES = [
  { icon: 'box', text: 'Every record sealed in a tamper-evident block' },
  { icon: 'lock', text: 'Documents encrypted with AES-256 in your browser' },
  { icon: 'alert', text: 'Emergency access that leaves an audit trail' },
] as const;

const ROLES = [
  { role: 'patient', label: 'Patient', icon: 'user' },
  { role: 'doctor', label: 'Doctor', icon: 'activity' },
] as const;

// The fields are the form's own (uncontrolled, read when it is sent): the pre-rendered copy of this screen
// (src/start/prerender-login.tsx) takes typing before React has hydrated it, and hydration keeps what was typed.
export function LoginPage() {
  const { signIn } = useSession();
  const formRef = useRef<HTMLFormElement>(null);
  const [held] = useState(peekHeldSignIn); // a Sign In pressed before the app ran (src/auth/held-sign-in.ts)
  const [busy, setBusy] = useState(held !== null);
  const [error, setError] = useState<string | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const left = useSyncExternalStore(subscribeSignInNotice, peekSignInNotice, noNotice); // why the user was signed out
  const [resetNotice, setResetNotice] = useState<string | null>(null);
  const notice = resetNotice ?? left;

  // Fill Demo Credentials needs the app: the pre-rendered copy shows it disabled until React has hydrated it
  const live = useHydrated();

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  // busy is set by the caller: a held sign-in renders busy from the start. Once signed in, the guard of / sends the
  // user to their dashboard; the word said until now is done.
  const signInWith = ({ email, password, role }: SignInFields) =>
    signIn(email, password, role).then(clearSignInNotice, (caught: unknown) => {
      setError(loginErrorMessage(caught));
      setBusy(false);
    });

  useEffect(() => {
    if (held && takeHeldSignIn()) void signInWith(held);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for the sign-in held before the app ran
  }, [held]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    // required + type=email: the browser names the problem on the field
    if (!event.currentTarget.checkValidity()) {
      event.currentTarget.reportValidity();
      return;
    }
    const fields = signInFieldsOf(event.currentTarget);
    setBusy(true);
    setError(null);
    void signInWith(fields);
  };

  const fillDemo = () => {
    const form = formRef.current;
    if (!form) return;
    const fill = (name: string, value: string) => ((form.elements.namedItem(name) as HTMLInputElement).value = value);
    fill('email', DEMO_ACCOUNTS[signInFieldsOf(form).role]);
    fill('password', DEMO_PASSWORD);
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

          {/* posted, never put in the address, by a browser without JavaScript; the app and public/start-app.js send nothing */}
          <Form ref={formRef} method="post" onSubmit={submit} aria-label="Sign in" aria-busy={busy}>
            <fieldset disabled={busy}>
              <fieldset className="mb-3">
                <legend className="form-label fs-6">Account type</legend>
                {/* Bootstrap's toggle is native radios: it works before the app runs. The radio takes focus: tabIndex
                    -1 keeps each label from being a second tab stop */}
                <div role="group" className="w-100 role-toggle btn-group">
                  {ROLES.map(({ role, label, icon }) => (
                    <Fragment key={role}>
                      <input
                        className="btn-check"
                        type="radio"
                        autoComplete="off"
                        id={`role-${role}`}
                        name="role"
                        value={role}
                        defaultChecked={role === (held?.role ?? 'patient')}
                      />
                      <label tabIndex={-1} htmlFor={`role-${role}`} className="btn btn-outline-primary">
                        <Icon name={icon} size={16} /> {label}
                      </label>
                    </Fragment>
                  ))}
                </div>
              </fieldset>

              <Form.Group className="mb-3" controlId="login-email">
                <Form.Label>Email</Form.Label>
                <Form.Control
                  type="email"
                  required
                  name="email"
                  autoComplete="username"
                  defaultValue={held?.email}
                  placeholder="name@example.com"
                />
              </Form.Group>

              <Form.Group className="mb-3" controlId="login-password">
                <Form.Label>Password</Form.Label>
                <Form.Control
                  type="password"
                  required
                  name="password"
                  autoComplete="current-password"
                  defaultValue={held?.password}
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
                {/* public/start-app.js shows the busy label on a Sign In pressed before the app ran */}
                <Button type="submit" variant="primary" size="lg" data-busy-label={SIGNING_IN}>
                  {busy ? SIGNING_IN : 'Sign In'}
                </Button>
                <Button type="button" variant="outline-secondary" onClick={fillDemo} disabled={!live}>
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
                  <span className="demo-account-email">
                    <EmailText email={user.email} />
                  </span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </main>
  );
}
