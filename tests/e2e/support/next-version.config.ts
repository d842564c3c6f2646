// The app's Vite config plus one more asset: a build of it is the app's "next version" for the update prompt's
// browser test (offline.test.ts), changed the way any release changes the precached files.
import { defineConfig, mergeConfig, type Plugin } from 'vite';
import appConfig from '../../../vite.config';

export const NEXT_VERSION_ASSET = 'next-version.txt';
export const NEXT_VERSION_TEXT = 'the next version of MedLedger';

const nextVersionAsset: Plugin = {
  name: 'next-version-asset',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: NEXT_VERSION_ASSET, source: NEXT_VERSION_TEXT });
  },
};

export default defineConfig(mergeConfig(appConfig, { plugins: [nextVersionAsset] }));
