import { resolve } from 'node:path'
import { defaultClientConditions, defineConfig } from 'vite'

// Each page is one way a dApp embeds Airlock; e2e journeys open them on http://localhost:5173.
export default defineConfig({
  // @airlock/host-sdk from its source (its `@airlock/source` export condition), so no build is needed first.
  resolve: { conditions: ['@airlock/source', ...defaultClientConditions] },
  server: { host: 'localhost', port: 5173, strictPort: true },
  preview: { host: 'localhost', port: 5173, strictPort: true },
  build: {
    target: 'es2022',
    rollupOptions: {
      input: Object.fromEntries(
        ['index', 'eip6963', 'plain', 'embedded', 'module'].map((page) => [
          page,
          resolve(import.meta.dirname, `${page}.html`),
        ]),
      ),
    },
  },
})
