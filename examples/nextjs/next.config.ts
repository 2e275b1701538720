import type { NextConfig } from 'next'

// The Next.js example (app router, server-rendered) on http://localhost:5176 (`next start`); nothing here
// reaches the network at build time: no fonts, no telemetry (the scripts set NEXT_TELEMETRY_DISABLED).
const config: NextConfig = {
  reactStrictMode: true,
  // The monorepo's root, so Next traces files from there rather than guessing from lockfiles.
  outputFileTracingRoot: new URL('../..', import.meta.url).pathname,
  turbopack: { root: new URL('../..', import.meta.url).pathname },
}

export default config
