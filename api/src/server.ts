#!/usr/bin/env node
/**
 * The server alone, as `npm run build` bundles it into `api/dist/server.js` for plain `node` (no tsx, no
 * node_modules): `node api/dist/server.js --config airlock.config.json`. Flags as `airlock-api serve`.
 */
import * as Start from './Start.ts'

process.exitCode = await Start.serve(process.argv.slice(2))
