import { defineConfig } from 'tsup'

// ESM and CJS with their own declarations; wagmi, viem and the host SDK stay the app's.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  target: 'es2022',
  clean: true,
})
