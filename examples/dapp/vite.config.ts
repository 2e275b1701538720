import { resolve } from 'node:path'
import { defineConfig } from 'vite'

// Each page is one way a dApp embeds Airlock; e2e journeys open them on http://localhost:5173.
export default defineConfig({
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
