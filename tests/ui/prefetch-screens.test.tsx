import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { findUser } from '../../workers/core/directory';
import type { User } from '../../workers/core/types';
import { PrefetchScreens } from '../../src/start/prefetch-screens';
import type { AppRoute } from '../../src/app/routes';
import { SessionContext, type SessionValue } from '../../src/auth/session-context';

const screen = () => Promise.resolve(() => null);

describe('Screens fetched ahead', () => {
  it("fetches the screens of the signed-in user's role, and none of the other role's", async () => {
    const routes: AppRoute[] = [
      { path: '/', access: 'guest', title: 'Sign In', element: null },
      { path: '/patient/records', access: 'patient', title: 'Medical Records', lazy: vi.fn(screen) },
      { path: '/doctor/patients', access: 'doctor', title: 'My Patients', lazy: vi.fn(screen) },
      { path: '/help', access: 'signed-in', title: 'Help', lazy: vi.fn(screen) },
    ];
    const user = findUser('patient-1') as User;
    const session: SessionValue = {
      status: 'signed-in',
      user,
      signIn: () => Promise.resolve(user),
      signOut: () => Promise.resolve(),
    };
    const order: string[] = [];
    const part = vi.fn(() => {
      order.push('layout part');
      return Promise.resolve();
    });
    (routes[1].lazy as ReturnType<typeof vi.fn>).mockImplementation(() => {
      order.push('records');
      return screen();
    });
    render(
      <SessionContext.Provider value={session}>
        <PrefetchScreens routes={routes} parts={[part]} />
      </SessionContext.Provider>,
    );
    // one screen per idle moment: the second comes after the first
    await waitFor(() => {
      expect(routes[1].lazy).toHaveBeenCalledOnce();
      expect(routes[3].lazy).toHaveBeenCalledOnce();
    });
    expect(routes[2].lazy).not.toHaveBeenCalled();
    // the layout's parts loaded on demand (the menu's drawer, its dialogs) come first
    expect(part).toHaveBeenCalledOnce();
    expect(order).toEqual(['layout part', 'records']);
  });

  it('fetches nothing for a visitor who is not signed in', async () => {
    const visitorScreen = vi.fn(screen);
    const patientScreen = vi.fn(screen);
    const visitor: SessionValue = {
      status: 'signed-out',
      user: null,
      signIn: () => Promise.reject(new Error('no')),
      signOut: () => Promise.resolve(),
    };
    const user = findUser('patient-1') as User;
    const patient: SessionValue = {
      status: 'signed-in',
      user,
      signIn: () => Promise.resolve(user),
      signOut: () => Promise.resolve(),
    };
    for (const [session, lazy] of [
      [visitor, visitorScreen],
      [patient, patientScreen],
    ] as const) {
      render(
        <SessionContext.Provider value={session}>
          <PrefetchScreens routes={[{ path: '/patient/records', access: 'patient', title: 'Medical Records', lazy }]} />
        </SessionContext.Provider>,
      );
    }
    // the signed-in tree rendered after the visitor's has fetched: the visitor's would have by now
    await waitFor(() => expect(patientScreen).toHaveBeenCalledOnce());
    expect(visitorScreen).not.toHaveBeenCalled();
  });
});
