import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, runnerImport, type Plugin, type Rolldown } from 'vite';
import { comlink } from 'vite-plugin-comlink';
import { VitePWA } from 'vite-plugin-pwa';
import { contentSecurityPolicyHeader, sendBrotliCopies, writeBrotliCopies } from './serve-build.ts';
import { SESSION_KEY } from './src/auth/session-key.ts';
import { pageHostsOf, withSyncConnectSources } from './server/sync-origins.ts';

const root = import.meta.dirname;

// index.html's Content-Security-Policy is for the built app: the dev server injects styles inline for hot reload.
const devWithoutCsp: Plugin = {
  name: 'dev-without-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/, ''),
};

// public/start-app.js reads the stored session under the key the app writes (src/auth/session-key.ts).
const sessionKeyInHtml: Plugin = {
  name: 'session-key-in-html',
  transformIndexHtml: (html) => {
    if (!html.includes('%SESSION_KEY%')) throw new Error('index.html names no %SESSION_KEY% for public/start-app.js');
    return html.replace('%SESSION_KEY%', SESSION_KEY);
  },
};

// The app's connect-src reaches the sync server where SYNC_HOST and SYNC_ORIGINS say it is (server/sync-origins.ts).
const syncSourcesInCsp: Plugin = {
  name: 'sync-sources-in-csp',
  apply: 'build',
  transformIndexHtml: (html) =>
    html.replace(/(http-equiv="Content-Security-Policy"\s+content=")([^"]+)"/, (_tag, start: string, policy: string) => {
      return `${start}${withSyncConnectSources(policy, process.env)}"`;
    }),
};

// runnerImport resolves packages for Node ('node' first, so react-bootstrap's deps give CommonJS), which the runner
// cannot evaluate inline: the pre-render's libraries resolve to their ES modules instead, as in the browser build
const browserModulesForPrerender: Plugin = {
  name: 'browser-modules-for-prerender',
  configEnvironment(name, config) {
    if (name !== 'inline') return;
    config.resolve = { ...config.resolve, conditions: ['module', 'import', 'production'], mainFields: ['module'] };
  },
};

// Build only: #root carries the login screen as the app renders it at / for a visitor (src/start/prerender-login.tsx),
// so a slow phone paints it before the JavaScript arrives; React hydrates those nodes (src/start/mount-app.tsx).
const prerenderLogin: Plugin = {
  name: 'prerender-login',
  apply: 'build',
  async transformIndexHtml(html) {
    const config = { root, configFile: false as const, logLevel: 'error' as const, plugins: [browserModulesForPrerender] };
    const { module } = await runnerImport<{ renderLoginHtml: () => string }>('/src/start/prerender-login.tsx', config);
    const empty = '<div id="root"></div>';
    if (!html.includes(empty)) throw new Error('index.html has no empty <div id="root"></div> to pre-render into');
    return html.replace(empty, `<div id="root">${module.renderLoginHtml()}</div>`);
  },
};

// The chunk files `from` names, with every chunk they import statically.
function withImports(bundle: Rolldown.OutputBundle, from: readonly string[]): string[] {
  const files = new Set<string>();
  const visit = (file: string) => {
    const chunk = bundle[file];
    if (files.has(file) || chunk?.type !== 'chunk') return;
    files.add(file);
    chunk.imports.forEach(visit);
  };
  from.forEach(visit);
  return [...files];
}

// Build only: the entry starts the ledger's worker, then imports the app and the first screen (src/start/main.tsx); it
// runs as soon as it is here (async), not after the stylesheet and the whole page, as a module script otherwise does.
// The app's chunks (the login's with them) are linked as modulepreloads in index.html, so they download beside the entry
// instead of after it (a returning user's dashboard is asked for by the entry, a few bytes in).
const PRELOADED = [join(root, 'src/start/start-app.tsx')];
const preloadTheApp: Plugin = {
  name: 'preload-the-app',
  apply: 'build',
  enforce: 'post',
  transformIndexHtml: {
    order: 'post',
    handler(html, { bundle, chunk }) {
      if (!bundle || !chunk) throw new Error('index.html is transformed before the bundle is read');
      const facades = PRELOADED.map((module) => {
        const found = Object.values(bundle).find((file) => file.type === 'chunk' && file.facadeModuleId === module);
        if (!found) throw new Error(`the build has no chunk of its own for ${module}`);
        return found.fileName;
      });
      const entry = `<script type="module" crossorigin src="/${chunk.fileName}"></script>`;
      if (!html.includes(entry)) throw new Error('index.html has no module entry to run early');
      const links = withImports(bundle, facades)
        .filter((file) => file !== chunk.fileName && !html.includes(`/${file}"`))
        .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
      return html
        .replace(entry, entry.replace('<script type="module"', '<script type="module" async'))
        .replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
    },
  },
};

// The service worker precaches the whole build (the app works offline after its first visit), and the
// manifest makes it installable. injectRegister false: src/start/service-worker.tsx registers it from a
// module of the app, so no inline script is needed and the CSP keeps script-src 'self'.
const offlineApp = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  manifest: {
    name: 'MedLedger',
    short_name: 'MedLedger',
    description: 'Blockchain-secured healthcare records for patients and doctors, kept in your browser.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#0b6e75',
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,png,txt,webmanifest}'],
    navigateFallback: 'index.html',
    cleanupOutdatedCaches: true,
    // the first visit's page comes under the worker at once; a later version then waits for Reload
    clientsClaim: true,
  },
});

// Module sets read from the module graph once it is built (buildEnd comes before chunking), which split the chunks
// below: what the entry runs before the app (src/start/main.tsx with all it imports statically), what a visitor's
// first screen imports (the app and the login) and what a returning user's does (the layout and both dashboards).
const ENTRY = join(root, 'src/start/main.tsx');
const inRoot = (files: string[]) => files.map((file) => join(root, file));
const VISITOR_SCREEN = inRoot(['src/start/start-app.tsx']); // the login comes with the app
const RETURNING_SCREEN = inRoot([
  'src/start/start-app.tsx',
  'src/layout/app-layout.tsx',
  'src/features/patient-dashboard/patient-dashboard-page.tsx',
  'src/features/doctor-dashboard/doctor-dashboard-page.tsx',
]);
const entryModules = new Set<string>();
const visitorModules = new Set<string>();
const returningModules = new Set<string>();
const findModuleSets: Plugin = {
  name: 'find-module-sets',
  apply: 'build',
  buildEnd() {
    const closure = (from: readonly string[], into: Set<string>) => {
      into.clear();
      const visit = (id: string) => {
        if (into.has(id)) return;
        into.add(id);
        this.getModuleInfo(id)?.importedIds.forEach(visit);
      };
      from.forEach(visit);
    };
    closure([ENTRY], entryModules);
    closure(VISITOR_SCREEN, visitorModules);
    closure(RETURNING_SCREEN, returningModules);
  },
};
// Modules of the entry stay out of the app's groups, or the entry would wait for a chunk the app shares.
const outsideEntry = (test: (id: string) => boolean) => (id: string) => !entryModules.has(id) && test(id);
const REACT_AND_ROUTER = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie)[\\/]/;
const SHARED = /[\\/](src[\\/](components|ledger|auth)|workers[\\/]core|node_modules)[\\/]/;

// Whether a module of a worker's build runs at the worker's start: its entry imports it, directly or through others.
function atWorkerStart(context: Rolldown.ChunkingContext, id: string, seen = new Set<string>()): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  const info = context.getModuleInfo(id);
  return !!info && (info.isEntry || info.importers.some((importer) => atWorkerStart(context, importer, seen)));
}

// comlink() must come first, in both plugin lists: it rewrites only the literal `new ComlinkWorker(new URL(...))`
export default defineConfig({
  plugins: [
    comlink(),
    react(),
    devWithoutCsp,
    findModuleSets,
    sessionKeyInHtml,
    syncSourcesInCsp,
    prerenderLogin,
    offlineApp,
    preloadTheApp,
    writeBrotliCopies,
    contentSecurityPolicyHeader,
    sendBrotliCopies,
  ],
  css: {
    // Bootstrap 5.3's Sass (src/app/bootstrap.scss) still uses @import and the global functions Dart Sass deprecates
    preprocessorOptions: { scss: { quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions'] } },
  },
  worker: {
    format: 'es',
    plugins: () => [comlink()],
    rolldownOptions: {
      // what a worker's start shares with its later chunks (the ledger's sandbox, FHIR, backups): one chunk, not six
      // of a few hundred bytes, each a request with its headers before the dashboard's data
      output: {
        codeSplitting: {
          groups: [{ name: (id, context) => (atWorkerStart(context, id) ? 'worker-start' : null), minShareCount: 2 }],
        },
      },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false }, // every browser that runs ES2022 modules supports modulepreload
    rolldownOptions: {
      output: {
        // A slow phone's first load is limited by its bandwidth and by the six connections it opens to one host: before
        // the login can be used it asks for 7 files (the entry, its start, the runtime, the stylesheet, 'base', the
        // app with the login, and public/start-app.js). The worker is built apart (worker above): these groups do not reach it.
        codeSplitting: {
          groups: [
            // what the entry runs before the app: one chunk, not five of a few hundred bytes
            { name: 'start', test: (id) => entryModules.has(id) && id !== ENTRY, priority: 4 },
            // React, the router, and the code a visitor's login shares with other screens (react-bootstrap, icons)
            {
              name: 'base',
              test: outsideEntry((id) => REACT_AND_ROUTER.test(id) || (SHARED.test(id) && visitorModules.has(id))),
              priority: 2,
            },
            // what the other screens share, in two chunks rather than dozens of 1 KB: what a returning user's dashboard
            // needs, and what only later screens share (the document viewer, dialogs, tables)
            {
              name: 'dashboards',
              test: outsideEntry((id) => SHARED.test(id) && returningModules.has(id) && !visitorModules.has(id)),
              minShareCount: 2,
              priority: 1,
            },
            {
              name: 'screens',
              test: outsideEntry((id) => SHARED.test(id) && !returningModules.has(id) && !visitorModules.has(id)),
              minShareCount: 2,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  preview: {
    host: '127.0.0.1',
    allowedHosts: pageHostsOf(process.env.SYNC_ORIGINS), // the host a reverse proxy passes on (README, "A phone")
    cors: false, // the app loads only its own origin's files: no Access-Control header on each of them
    headers: { 'X-Content-Type-Options': 'nosniff' }, // and the policy, where it applies (contentSecurityPolicyHeader)
  },
});
