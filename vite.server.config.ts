// The sync server's bundle (npm run build): server/main.ts with the workers/core TypeScript it imports, for Node.
// Every package stays external and is loaded from node_modules at run time.
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'server/main.ts',
    outDir: 'dist-server',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: false,
    rolldownOptions: {
      external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
      output: { entryFileNames: 'sync-server.mjs', format: 'es' },
    },
  },
});
