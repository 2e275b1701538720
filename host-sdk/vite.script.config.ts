import { defineConfig } from 'vite'

// The one-<script> build served by the modal origin at /airlock.js: one minified IIFE, no imports.
export default defineConfig({
  build: {
    lib: { entry: 'src/script.ts', formats: ['iife'], name: 'Airlock', fileName: () => 'airlock.js' },
    target: 'es2022',
    emptyOutDir: false,
    minify: true,
  },
})
