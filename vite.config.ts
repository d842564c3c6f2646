import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import purgeCss from '@fullhuman/postcss-purgecss';
import type { AcceptedPlugin, Root } from 'postcss';
import { defineConfig, runnerImport, type Plugin, type Rolldown } from 'vite';
import { comlink } from 'vite-plugin-comlink';
import { VitePWA } from 'vite-plugin-pwa';
import { REACT_LIBRARIES, reactOnPreact } from './preact-alias.ts';
import { policyWhereItApplies, sendBrotliCopies, writeBrotliCopies } from './serve-build.ts';

const root = import.meta.dirname;

// Every source file of the app: its class names are what the purge keeps.
function sourceFiles(): string[] {
  const src = join(root, 'src');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(tsx?|css)$/.test(name))
    .map((name) => join(src, name));
}

// The react-bootstrap modules the app imports, with everything they import in turn: their class-name
// literals ('navbar-brand', 'form-check-input'...) are kept, those of unused components are not.
function reactBootstrapModules(files: readonly string[]): string[] {
  const esm = join(root, 'node_modules/react-bootstrap/esm');
  const seen = new Set<string>();
  const visit = (name: string) => {
    const file = join(esm, name.endsWith('.js') ? name : `${name}.js`);
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    for (const [, next] of readFileSync(file, 'utf8').matchAll(/from ['"]\.\/([\w.]+)['"]/g)) visit(next);
  };
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    for (const [, name] of code.matchAll(/from ['"]react-bootstrap\/(\w+)['"]/g)) visit(name);
    for (const [, names] of code.matchAll(/import\s*\{([^}]+)\}\s*from ['"]react-bootstrap['"]/g)) {
      for (const name of names.split(',')) visit(name.trim().split(/\s+as\s+/)[0]);
    }
  }
  return [...seen];
}

// Classes react-bootstrap builds at run time from props (`${prefix}-${variant}`, `col-${bp}-${span}`...):
// no source file spells them out, so they are kept by pattern. A newly used component that builds its
// classes this way needs its pattern here, or it renders unstyled in the build (not in `npm run dev`).
const COLORS = '(primary|secondary|success|danger|warning|info|light|dark|body|white|black|muted)';
const BUILT_FROM_PROPS = [
  /^btn-/,
  /^alert-/,
  /^bg-/,
  /^text-bg-/,
  new RegExp(`^text-${COLORS}`),
  new RegExp(`^border-${COLORS}`),
  /^spinner-/,
  /^progress/,
  /^table-/,
  /^col/,
  /^row-cols-/,
  /^g[xy]?-\d/,
  /^offset-/,
  /^order-/,
  /^gap-/,
  /^container/,
  /^navbar-(?!expand-(sm|md|lg|xl|xxl)$)/, // the top bar always expands: no breakpoint of it is used
  /^nav-/,
  /^offcanvas(?!-(sm|md|xl|xxl)$)/, // the side menu is an offcanvas below lg only
  /^modal/,
  /^form-(control|select)-(sm|lg)$/,
  /^form-check-(inline|reverse)$/,
  /^form-switch$/,
  /^is-(in)?valid$/,
  /-feedback$/,
  /-tooltip$/,
  /^bs-tooltip-/,
  /^tooltip/,
  /^list-group(?!-horizontal)/,
  /^input-group-(sm|lg)$/,
  /^has-validation$/,
  /^fade$/,
  /^show$/,
  /^showing$/,
  /^hiding$/,
  /^collaps/,
  /^active$/,
  /^disabled$/,
];

// Components a react-bootstrap module the app imports names (Form lists all its parts, Overlay its popover), which
// no screen renders: their rules would only add bytes to the first load.
const UNUSED_COMPONENTS = [/^popover/, /^bs-popover/, /^form-floating$/, /^form-range$/, /^btn-group-vertical$/];

// Bootstrap's stylesheet only, at build time: the app's own CSS is left exactly as written.
function purgeBootstrap(): AcceptedPlugin {
  const files = sourceFiles();
  const purge = purgeCss({
    content: [join(root, 'index.html'), ...files, ...reactBootstrapModules(files)],
    safelist: { standard: BUILT_FROM_PROPS },
    blocklist: UNUSED_COMPONENTS,
  }) as { OnceExit: (root: Root, helpers: unknown) => Promise<void> };
  return {
    postcssPlugin: 'purge-bootstrap',
    OnceExit(css, helpers) {
      if (!/[\\/]node_modules[\\/]bootstrap[\\/]/.test(css.source?.input.file ?? '')) return;
      return purge.OnceExit(css, helpers);
    },
  };
}

const routerProductionBuild = [
  { find: /^react-router$/, replacement: join(root, 'node_modules/react-router/dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: join(root, 'node_modules/react-router/dist/production/dom-export.mjs') },
];

// index.html's Content-Security-Policy is for the built app: the dev server injects styles inline for hot reload.
const devWithoutCsp: Plugin = {
  name: 'dev-without-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/, ''),
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

// Build only: #root carries the login screen's HTML, rendered from LoginPage itself (src/app/prerender-login.tsx),
// so a slow phone paints it before the JavaScript arrives; src/main.tsx then renders the app in its place. After
// #root, each user's dashboard frame in a <template> (src/app/prerender-shell.tsx): public/start-app.js shows the
// stored user's for a returning user, so their dashboard paints as early as the login.
const prerenderScreens: Plugin = {
  name: 'prerender-screens',
  apply: 'build',
  async transformIndexHtml(html) {
    // rendered by Preact, like the app that takes it over: the same markup and useId ids to hydrate
    const config = {
      root,
      configFile: false as const,
      logLevel: 'error' as const,
      resolve: { alias: reactOnPreact },
      environments: { inline: { resolve: { noExternal: REACT_LIBRARIES } } },
      plugins: [browserModulesForPrerender],
    };
    const load = async <T>(file: string) => (await runnerImport<T>(file, config)).module;
    const { renderLoginHtml } = await load<{ renderLoginHtml: () => string }>('/src/app/prerender-login.tsx');
    const { renderShellTemplates } = await load<{ renderShellTemplates: () => string }>('/src/app/prerender-shell.tsx');
    const empty = '<div id="root"></div>';
    if (!html.includes(empty)) throw new Error('index.html has no empty <div id="root"></div> to pre-render into');
    return html.replace(empty, `<div id="root">${renderLoginHtml()}</div>${renderShellTemplates()}`);
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

// The chunks of `screens` (their modules' paths), with all they import, that the staged ones do not hold.
function screenChunks(bundle: Rolldown.OutputBundle, staged: readonly string[], screens: readonly string[]): string[] {
  const files = screens.map((screen) => {
    const chunk = Object.values(bundle).find((file) => file.type === 'chunk' && file.facadeModuleId === screen);
    if (!chunk) throw new Error(`the build has no chunk of its own for ${screen}`);
    return chunk.fileName;
  });
  return withImports(bundle, files)
    .map((file) => `/${file}`)
    .filter((file) => !staged.includes(file));
}

// The chunks the entry runs before any screen renders: its own imports and src/main.tsx's stages, with all they
// import. Read from the bundle before Vite writes a lazy screen's preload list (resolveDependencies below) and
// index.html (startAfterFirstPaint's data-preload).
const startChunks = new Set<string>();
const findStartChunks: Plugin = {
  name: 'find-start-chunks',
  apply: 'build',
  generateBundle: {
    order: 'pre',
    handler(_options, bundle) {
      const entry = Object.values(bundle).find((chunk) => chunk.type === 'chunk' && chunk.isEntry);
      if (entry?.type !== 'chunk') throw new Error('the build has no entry chunk');
      startChunks.clear();
      withImports(bundle, [entry.fileName, ...entry.dynamicImports]).forEach((file) => startChunks.add(file));
    },
  },
};

// Whether a module of a worker's build runs at the worker's start: its entry imports it, directly or through others.
function atWorkerStart(context: Rolldown.ChunkingContext, id: string, seen = new Set<string>()): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  const info = context.getModuleInfo(id);
  return !!info && (info.isEntry || info.importers.some((importer) => atWorkerStart(context, importer, seen)));
}

// The first screens a returning user sees: the staged start, the layout and both dashboards.
const APP_LAYOUT = join(root, 'src/layout/app-layout.tsx');
const PATIENT_DASHBOARD = join(root, 'src/features/patient-dashboard/patient-dashboard-page.tsx');
const DOCTOR_DASHBOARD = join(root, 'src/features/doctor-dashboard/doctor-dashboard-page.tsx');
const FIRST_SCREENS = [
  ...['src/main.tsx', 'src/app/router.tsx', 'src/app/start.tsx', 'src/components/page-spinner.tsx'].map((file) =>
    join(root, file),
  ),
  APP_LAYOUT,
  PATIENT_DASHBOARD,
  DOCTOR_DASHBOARD,
];

// What the screens share: react-bootstrap, the app's components and hooks. Sync's screen code (src/components/sync-words.ts,
// src/ledger/use-sync-status.ts) stays with the screens that show it: the first load does not grow for a feature
// that is off by default.
const sharedModule = (id: string) =>
  /[\\/](src[\\/](components|ledger|auth)|workers[\\/]core|node_modules)[\\/]/.test(id) &&
  !/[\\/]src[\\/].*sync-[\w-]+\.ts$/.test(id);

// Every module the first screens import statically, read from the module graph once it is built (buildEnd comes before
// chunking): the 'shared' and 'screens' chunks below are split by it. So are the login screen's ('login') and what
// src/main.tsx needs to start the worker ('ledger-start').
const firstScreenModules = new Set<string>();
const loginModules = new Set<string>();
const LOGIN_SCREEN = join(root, 'src/features/login/login-page.tsx');
const workerStartModules = new Set<string>();
const WORKER_START = join(root, 'src/ledger/ledger-worker.ts');
const findFirstScreenModules: Plugin = {
  name: 'find-first-screen-modules',
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
    closure(FIRST_SCREENS, firstScreenModules);
    closure([LOGIN_SCREEN], loginModules);
    closure([WORKER_START], workerStartModules);
  },
};

// V8 compiles a function when it is first called, on the main thread: a returning user's first render paid for
// much of the app's code that way (traced in Lighthouse: a 25-30 ms task, a 24 ms chunk evaluation). A file that starts
// with this comment has every function compiled as Chromium streams it, on a background thread (V8's explicit
// compile hints, Chromium 136 and later; to other browsers it is a comment). The chunks the first screens run start
// with it: the staged start, the layout, both dashboards and the login. Build only, after Vite's own line on top.
const EAGER_COMPILE_HINT = '//# allFunctionsCalledOnLoad';
const compileFirstScreensEagerly: Plugin = {
  name: 'compile-first-screens-eagerly',
  apply: 'build',
  enforce: 'post',
  generateBundle: {
    order: 'post', // after Vite's line that lists a chunk's lazy imports' dependencies: the comment must come first
    handler(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        if (!chunk.isEntry && !chunk.moduleIds.some((id) => firstScreenModules.has(id) || loginModules.has(id))) continue;
        chunk.code = `${EAGER_COMPILE_HINT}\n${chunk.code}`;
        // its source map, where the build writes one, one line down (as Vite moves it for its own line)
        const map = bundle[`${chunk.fileName}.map`];
        if (map?.type === 'asset' && typeof map.source === 'string') {
          const json = JSON.parse(map.source) as { mappings: string };
          map.source = JSON.stringify({ ...json, mappings: `;${json.mappings}` });
        }
      }
    },
  },
};

// Build only: the entry script and its modulepreloads (with those of main.tsx's stages) move to data attributes
// of public/start-app.js, which requests them after the first paint: the pre-rendered screen's paint then waits
// for no JavaScript. So does the web app manifest's link: Chromium fetches the manifest and an icon as soon as it
// sees it, which a slow network then sends before the screen's own paint.
const startAfterFirstPaint: Plugin = {
  name: 'start-after-first-paint',
  apply: 'build',
  enforce: 'post', // after vite-plugin-pwa's, which adds the manifest's link (listed before this one below)
  transformIndexHtml: {
    order: 'post',
    handler(html, { bundle, chunk }) {
      const entry = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
      const starter = '<script src="/start-app.js"></script>';
      if (!entry || !html.includes(starter)) throw new Error('index.html has no module entry or no start-app.js to start it');
      // Vite's links of the entry's imports: in data-preload below, with the stages'
      let result = html.replace(entry[0], '').replace(/\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, '');
      const manifest = /\s*<link rel="manifest" href="([^"]+)">/.exec(result);
      if (!manifest) throw new Error('index.html has no web app manifest link to move');
      result = result.replace(manifest[0], '');
      if (!bundle || !chunk || !startChunks.has(chunk.fileName))
        throw new Error('index.html is transformed before the bundle is read');
      // the chunks the entry imports and src/main.tsx's stages, with all they import (findStartChunks): fetched with
      // the entry, run later
      const staged = [...startChunks].filter((file) => file !== chunk.fileName).map((file) => `/${file}`);
      // fetched at once for a visitor without a session; for a returning user whose dashboard frame shows, that
      // dashboard's and the layout's, so the first render finds them loaded and inserts no links of its own
      const login = screenChunks(bundle, staged, [LOGIN_SCREEN]).join(' ');
      const [patient, doctor] = [PATIENT_DASHBOARD, DOCTOR_DASHBOARD].map((dashboard) =>
        screenChunks(bundle, staged, [APP_LAYOUT, dashboard]).join(' '),
      );
      return result.replace(
        starter,
        `<script src="/start-app.js" data-entry="${entry[1]}" data-preload="${staged.join(' ')}" data-preload-guest="${login}" data-preload-patient="${patient}" data-preload-doctor="${doctor}" data-manifest="${manifest[1]}"></script>`,
      );
    },
  },
};

// The service worker precaches the whole build (the app works offline after its first visit), and the
// manifest makes it installable. injectRegister false: src/app/service-worker.tsx registers it from a
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

// comlink() must come first, in both plugin lists: it rewrites only the literal `new ComlinkWorker(new URL(...))`
export default defineConfig(({ command }) => ({
  plugins: [
    comlink(),
    devWithoutCsp,
    findFirstScreenModules,
    findStartChunks,
    prerenderScreens,
    offlineApp,
    startAfterFirstPaint,
    compileFirstScreensEagerly,
    writeBrotliCopies,
    policyWhereItApplies,
    sendBrotliCopies,
  ],
  resolve: {
    // react-router's package exports only its development build (dev warnings on): the app's build takes its production one
    alias: command === 'build' ? [...reactOnPreact, ...routerProductionBuild] : reactOnPreact,
    dedupe: ['preact'],
  },
  // JSX as React's automatic runtime, which the alias turns into Preact's; no @vitejs/plugin-react: its Fast
  // Refresh patches React's internals, which Preact has not (a change in `npm run dev` reloads the page instead)
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
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
  css: command === 'build' ? { postcss: { plugins: [purgeBootstrap()] } } : {},
  build: {
    target: 'es2022',
    sourcemap: false,
    modulePreload: {
      polyfill: false, // every browser that runs ES2022 modules supports modulepreload
      // A lazy screen's imports that src/main.tsx's stages ran before any screen renders: Vite's preload helper need
      // not look for their links in the page again, in the render that asks for the screen.
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'js' ? deps.filter((dep) => !startChunks.has(dep)) : deps,
    },
    rolldownOptions: {
      output: {
        // Preact (under React's names) and the router in a chunk each, whichever screen loads first: src/main.tsx runs them in stages.
        // The worker is built apart (worker below): these groups do not reach it.
        codeSplitting: {
          groups: [
            // src/main.tsx starts the ledger's worker before its stages: that code without React, or anything needing it
            { name: 'ledger-start', test: (id) => workerStartModules.has(id), priority: 4 },
            { name: 'react', test: /[\\/]node_modules[\\/]preact[\\/]/, priority: 3 },
            { name: 'router', test: /[\\/]node_modules[\\/](react-router|react-router-dom|cookie)[\\/]/, priority: 2 },
            // what the screens share: two chunks, not dozens of 1 KB. 'shared' holds what the first screens import,
            // 'screens' what only later screens share (the document viewer, forms, tables): a returning user's
            // dashboard does not wait for those
            { name: 'shared', test: (id) => sharedModule(id) && firstScreenModules.has(id), minShareCount: 2, priority: 1 },
            { name: 'login', test: (id) => loginModules.has(id) && !firstScreenModules.has(id), priority: 1 },
            { name: 'screens', test: (id) => sharedModule(id) && !firstScreenModules.has(id), minShareCount: 2, priority: 1 },
          ],
        },
      },
    },
  },
  preview: {
    host: '127.0.0.1',
    cors: false, // the app loads only its own origin's files: no Access-Control header on each of them
    headers: { 'X-Content-Type-Options': 'nosniff' }, // and the policy, where it applies (policyWhereItApplies)
  },
}));
