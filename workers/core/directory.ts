// The hard-coded users (the demo accounts of README.md): 2 patients and 2 doctors. Static data, also read by the UI.
import type { Doctor, Patient, User } from './types';

export const PATIENTS: readonly Patient[] = [
  {
    id: 'patient-1',
    email: 'sarah.johnson@medledger.demo',
    name: 'Sarah Johnson',
    role: 'patient',
    createdAt: '2025-01-15T09:00:00.000Z',
    dateOfBirth: '1988-04-12',
    gender: 'Female',
    bloodType: 'O+',
    allergies: ['Penicillin', 'Peanuts'],
    emergencyContact: 'Mark Johnson (spouse) +1 555 0142',
    doctorId: 'doctor-1',
  },
  {
    id: 'patient-2',
    email: 'michael.chen@medledger.demo',
    name: 'Michael Chen',
    role: 'patient',
    createdAt: '2025-02-03T14:30:00.000Z',
    dateOfBirth: '1975-11-02',
    gender: 'Male',
    bloodType: 'A-',
    allergies: ['Latex'],
    emergencyContact: 'Lily Chen (daughter) +1 555 0199',
    doctorId: 'doctor-2',
  },
];

export const DOCTORS: readonly Doctor[] = [
  {
    id: 'doctor-1',
    email: 'emily.carter@medledger.demo',
    name: 'Dr. Emily Carter',
    role: 'doctor',
    createdAt: '2024-11-20T08:00:00.000Z',
    specialization: 'Cardiology',
    licenseNumber: 'MD-CA-482913',
    hospital: 'St. Mary Medical Center',
    patients: ['patient-1'],
  },
  {
    id: 'doctor-2',
    email: 'james.wilson@medledger.demo',
    name: 'Dr. James Wilson',
    role: 'doctor',
    createdAt: '2024-12-05T08:00:00.000Z',
    specialization: 'Emergency Medicine',
    licenseNumber: 'MD-NY-771045',
    hospital: 'City General Hospital',
    patients: ['patient-2'],
  },
];

export const USERS: readonly User[] = [...PATIENTS, ...DOCTORS];

// The accounts 'Fill Demo Credentials' puts in the form, one per role.
export const DEMO_ACCOUNTS = { patient: PATIENTS[0].email, doctor: DOCTORS[0].email } as const;

export function findUser(id: string): User | undefined {
  return USERS.find((user) => user.id === id);
}
