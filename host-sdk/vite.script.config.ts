import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// The one-<script> build served by the modal origin: `airlock.js` (the core: providers, frame) and
// `airlock-bridge.js` (handshake, messenger, page wallets), which the core loads after the page's `load`.
// IIFE builds cannot split, so each is its own build: `--mode core` or `--mode bridge`.
export default defineConfig(({ mode }) => ({
  resolve: {
    alias:
      mode === 'core'
        ? [
            {
              find: /^\.\/internal\/loadBridge\.ts$/,
              replacement: fileURLToPath(new URL('src/internal/loadBridge.script.ts', import.meta.url)),
            },
          ]
        : [],
  },
  build: {
    lib: {
      entry: mode === 'core' ? 'src/script.ts' : 'src/bridgeScript.ts',
      formats: ['iife'],
      name: mode === 'core' ? 'Airlock' : 'AirlockBridge',
      fileName: () => (mode === 'core' ? 'airlock.js' : 'airlock-bridge.js'),
    },
    target: 'es2022',
    emptyOutDir: false,
    minify: true,
  },
}))
