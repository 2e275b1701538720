import { defineConfig } from 'vite'

// The React + wagmi example on http://localhost:5175 (the demo project allows any http://localhost:* page).
export default defineConfig({
  server: { host: 'localhost', port: 5175, strictPort: true },
  preview: { host: 'localhost', port: 5175, strictPort: true },
  build: { target: 'es2022' },
})
