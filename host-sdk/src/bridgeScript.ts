/** Entry of dist/airlock-bridge.js: hands the bridge to airlock.js (see internal/loadBridge.script.ts). */
import * as bridge from './internal/bridge.ts'

Object.assign(window, { __airlockBridge: bridge })
