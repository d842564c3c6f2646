import { renderToStaticMarkup } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router-dom';
import { USERS } from '../../workers/core/directory';
import type { User } from '../../workers/core/types';
import { dashboardPath } from '../auth/dashboard-path';
import { SessionContext, type SessionValue } from '../auth/session-context';
import { DoctorDashboardShell } from '../features/doctor-dashboard/doctor-dashboard-shell';
import { PatientDashboardShell } from '../features/patient-dashboard/patient-dashboard-shell';
import { AppLayout } from '../layout/app-layout';
import { LedgerContext, type LedgerContextValue, type LedgerRemote } from '../ledger/ledger-context';
import { createVersionStore } from '../ledger/ledger-versions';
import { createSharedQuery } from '../ledger/shared-query';

const notAtBuildTime = () => Promise.reject(new Error('MedLedger: the pre-rendered shell has no ledger'));

// Nothing is asked of the ledger while rendering (effects do not run on the server): the chain status stays unsettled.
const NO_LEDGER: LedgerContextValue = {
  service: new Proxy({}, { get: () => notAtBuildTime }) as LedgerRemote,
  versions: createVersionStore(),
  chainStatus: createSharedQuery(() => new Promise<never>(() => undefined)),
};

function renderShell(user: User): string {
  const path = dashboardPath(user.role);
  const page = user.role === 'patient' ? <PatientDashboardShell name={user.name} /> : <DoctorDashboardShell user={user} />;
  const session: SessionValue = { status: 'signed-in', user, signIn: notAtBuildTime, signOut: notAtBuildTime };
  return renderToStaticMarkup(
    <LedgerContext.Provider value={NO_LEDGER}>
      <SessionContext.Provider value={session}>
        <StaticRouter location={path}>
          <Routes>
            <Route element={<AppLayout title="Dashboard" />}>
              <Route path={path} element={page} />
            </Route>
          </Routes>
        </StaticRouter>
      </SessionContext.Provider>
    </LedgerContext.Provider>,
  );
}

// Run by the build (vite.config.ts, prerenderShells) in Node: each user's dashboard frame (top bar, menu, headings,
// cards) in a <template>, which public/start-app.js shows for a returning user before any JavaScript of the app
// runs. Built from the user directory only: no record, no chain figure, nothing of the stored session.
export function renderShellTemplates(): string {
  return USERS.map((user) => {
    const html = renderShell(user);
    if (!html.includes('<h1')) throw new Error(`MedLedger: the shell of ${user.id} rendered no heading`);
    return `<template id="shell-${user.id}" data-path="${dashboardPath(user.role)}">${html}</template>`;
  }).join('');
}
