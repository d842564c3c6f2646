import type { Role } from '../../workers/core/types';
import type { IconName } from '../components/icon';

export interface MenuItem {
  label: string;
  path: string;
  icon: IconName;
  roles: readonly Role[];
}

// The side menu, per role, with its exact labels. A patient's Mining Lab opens from the Blockchain Explorer
// (docs/product-copy.md): a patient's main menu holds their health records only, and the chain.
export const MENU_ITEMS: readonly MenuItem[] = [
  { label: 'Dashboard', path: '/patient/dashboard', icon: 'grid', roles: ['patient'] },
  { label: 'My Profile', path: '/patient/profile', icon: 'user', roles: ['patient'] },
  { label: 'Medical Records', path: '/patient/records', icon: 'file', roles: ['patient'] },
  { label: 'Upload Documents', path: '/patient/upload', icon: 'upload', roles: ['patient'] },
  { label: 'Sharing', path: '/patient/sharing', icon: 'share', roles: ['patient'] },
  { label: 'Blockchain Explorer', path: '/patient/blockchain', icon: 'box', roles: ['patient'] },
  { label: 'Dashboard', path: '/doctor/dashboard', icon: 'grid', roles: ['doctor'] },
  { label: 'My Profile', path: '/doctor/profile', icon: 'user', roles: ['doctor'] },
  { label: 'My Patients', path: '/doctor/patients', icon: 'users', roles: ['doctor'] },
  { label: 'SOS Emergency', path: '/doctor/emergency', icon: 'alert', roles: ['doctor'] },
  { label: 'Blockchain Explorer', path: '/doctor/blockchain', icon: 'box', roles: ['doctor'] },
  { label: 'Mining Lab', path: '/doctor/mining-lab', icon: 'activity', roles: ['doctor'] },
];
