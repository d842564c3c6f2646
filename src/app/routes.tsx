import type { ComponentType, ReactNode } from 'react';
import type { Role } from '../../workers/core/types';
import { DOCTOR_OVERVIEW, PATIENT_OVERVIEW, SHARED_WITH_ME } from '../ledger/shared-queries';
import type { NamedQuery } from '../ledger/use-ledger-query';

// guest: only when signed out (login); signed-in: any role, inside the layout; a Role: that role only.
export type RouteAccess = 'guest' | 'signed-in' | Role;

export interface AppRoute {
  path: string;
  access: RouteAccess;
  title: string; // the document title
  element?: ReactNode;
  // A code-split screen is one line: lazy: () => import('../features/x/x-page').then((m) => m.XPage)
  lazy?: () => Promise<ComponentType>;
  // what the screen shows first, asked of the worker beside its code when a returning user lands on it (src/start/)
  firstData?: readonly NamedQuery<unknown>[];
}

// The layout of every signed-in screen: code-split, the login screen never loads it
export const APP_LAYOUT = () => import('../layout/app-layout').then((m) => m.AppLayout);

// Every route of the app (profile, records and patients are real screens: docs/decisions/real-screens.md); any other path redirects to / (see router.tsx).
export const APP_ROUTES: readonly AppRoute[] = [
  { path: '/', access: 'guest', title: 'Sign In', lazy: () => import('../features/login/login-page').then((m) => m.LoginPage) },
  {
    path: '/patient/dashboard',
    access: 'patient',
    title: 'Dashboard',
    firstData: [PATIENT_OVERVIEW],
    lazy: () => import('../features/patient-dashboard/patient-dashboard-page').then((m) => m.PatientDashboardPage),
  },
  {
    path: '/patient/profile',
    access: 'patient',
    title: 'My Profile',
    lazy: () => import('../features/profile/profile-page').then((m) => m.ProfilePage),
  },
  {
    path: '/patient/records',
    access: 'patient',
    title: 'Medical Records',
    lazy: () => import('../features/records/records-page').then((m) => m.RecordsPage),
  },
  {
    path: '/patient/upload',
    access: 'patient',
    title: 'Upload Documents',
    lazy: () => import('../features/upload/upload-page').then((m) => m.UploadPage),
  },
  {
    path: '/patient/sharing',
    access: 'patient',
    title: 'Sharing',
    lazy: () => import('../features/sharing/sharing-page').then((m) => m.SharingPage),
  },
  {
    path: '/patient/blockchain',
    access: 'patient',
    title: 'Blockchain Explorer',
    lazy: () => import('../features/explorer/explorer-page').then((m) => m.ExplorerPage),
  },
  {
    path: '/patient/mining-lab',
    access: 'patient',
    title: 'Mining Lab',
    lazy: () => import('../features/mining-lab/mining-lab-page').then((m) => m.MiningLabPage),
  },
  {
    path: '/doctor/dashboard',
    access: 'doctor',
    title: 'Dashboard',
    firstData: [DOCTOR_OVERVIEW, SHARED_WITH_ME],
    lazy: () => import('../features/doctor-dashboard/doctor-dashboard-page').then((m) => m.DoctorDashboardPage),
  },
  {
    path: '/doctor/profile',
    access: 'doctor',
    title: 'My Profile',
    lazy: () => import('../features/profile/profile-page').then((m) => m.ProfilePage),
  },
  {
    path: '/doctor/patients',
    access: 'doctor',
    title: 'My Patients',
    lazy: () => import('../features/my-patients/my-patients-page').then((m) => m.MyPatientsPage),
  },
  {
    path: '/doctor/emergency',
    access: 'doctor',
    title: 'SOS Emergency Access',
    lazy: () => import('../features/emergency/emergency-page').then((m) => m.EmergencyPage),
  },
  {
    path: '/doctor/blockchain',
    access: 'doctor',
    title: 'Blockchain Explorer',
    lazy: () => import('../features/explorer/explorer-page').then((m) => m.ExplorerPage),
  },
  {
    path: '/doctor/mining-lab',
    access: 'doctor',
    title: 'Mining Lab',
    lazy: () => import('../features/mining-lab/mining-lab-page').then((m) => m.MiningLabPage),
  },
];
