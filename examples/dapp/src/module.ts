/**
 * The ES module build, for bundled dApps and for tests that need options a script tag cannot carry:
 * `?modal=<url>` points at another modal origin, `?loadTimeout=<ms>` shortens the frame-load time-out.
 */
import { createAirlock } from '@airlock/host-sdk'

const query = new URLSearchParams(location.search)
const timeouts: string[] = []
const airlock = createAirlock({
  projectId: query.get('project') ?? 'demo',
  modalUrl: query.get('modal') ?? 'http://127.0.0.1:5174',
  networks: ['eip155:31337', 'eip155:31338'],
  timeouts: { load: Number(query.get('loadTimeout') ?? 20_000) },
  onTimeout: (reason) => timeouts.push(reason),
})
Object.assign(window, { airlock, airlockTimeouts: timeouts })
;(document.getElementById('open') as HTMLElement).onclick = () => airlock.open()
