import { defineConfig } from 'tsup'

// ESM only, as wagmi and @wagmi/core are: a CommonJS build could not import its own peer under TypeScript's
// node16 resolution. Wagmi, viem and the host SDK stay the app's.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  target: 'es2022',
  clean: true,
})
