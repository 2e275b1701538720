import { defineConfig } from 'tsup'

// The npm build, for `import { createAirlock } from '@airlock/host-sdk'` in bundled dApps and SSR: ESM and
// CJS, each with its own declarations. Nothing is left to install: `@airlock/bridge-protocol` is not
// published, so its code (with the comlink and @noble/hashes it uses) is bundled in, and so are the types the
// public API names (the Wallet Standard's are restated in src/WalletStandard.ts). The one-<script> build
// (airlock.js, airlock-bridge.js) is vite.script.config.ts.
export default defineConfig({
  entry: ['src/index.ts', 'src/global.ts'],
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'neutral',
  noExternal: ['@airlock/bridge-protocol'],
  // Mapped to source, the protocol's types count as this package's own, so the declarations carry them.
  dts: {
    compilerOptions: {
      paths: {
        '@airlock/bridge-protocol': ['../bridge-protocol/src/index.ts'],
        '@airlock/bridge-protocol/*': ['../bridge-protocol/src/*.ts'],
      },
    },
  },
  clean: true,
})
