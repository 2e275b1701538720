import { defineConfig } from 'tsup'

// ESM and CJS with their own declarations; React and the host SDK stay the app's (one copy on the page).
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  target: 'es2022',
  clean: true,
  // Next.js's app router renders a module's hooks on the client only when the module says so.
  banner: { js: "'use client';" },
})
