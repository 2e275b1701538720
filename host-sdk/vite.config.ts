import { defineConfig } from 'vite'

// The ES module build, for `import { createAirlock } from '@airlock/host-sdk'` in bundled dApps.
export default defineConfig({
  build: {
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: 'index' },
    target: 'es2022',
    emptyOutDir: false,
  },
})
