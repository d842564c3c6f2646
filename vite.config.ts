import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { comlink } from 'vite-plugin-comlink';

// comlink() must come first, in both plugin lists (see DESIGN.md, known pitfalls)
export default defineConfig({
  plugins: [comlink(), react()],
  worker: {
    format: 'es',
    plugins: () => [comlink()],
  },
  build: {
    target: 'es2022',
    sourcemap: false,
  },
  preview: {
    host: '127.0.0.1',
  },
});
