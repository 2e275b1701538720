/**
 * Boot. The handshake listener starts first, synchronously: the host posts its hello as soon as the frame
 * loads, and a hello that arrives before anyone listens is lost (modules are evaluated before the frame's
 * load event, so listening in this module's first statement is early enough). Everything else comes after,
 * and the heavy parts (network registry, viem, all views but Connect) load on demand.
 */
import { Handshake, Messenger, Origin, Schema } from '@airlock/bridge-protocol'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import * as Api from './api/Api.ts'
import { compose } from './compose.ts'
import * as Config from './core/Config.ts'
import * as Storage from './core/Storage.ts'
import { App } from './core/ui/App.tsx'
import { preload as preloadAccount } from './features/account/feature.ts'
import * as Theme from './shared/Theme.ts'
import { texts } from './shared/texts.ts'
import './styles.css'

const parsed = Config.parse(location.search)
const api = Api.create({ baseUrl: Api.baseUrlOf(document), projectId: parsed.projectId })
// Asked at once, so the list is usually here before the host's hello is.
const patterns = api.origins()

const accepted = Handshake.accept({
  window,
  projectId: parsed.projectId,
  isAllowed: async (origin) => {
    const allowed = await patterns
    return allowed !== undefined && Origin.isAllowed(allowed, origin)
  },
  onRefused: (refusal) =>
    void patterns.then((allowed) =>
      modal.alert(
        allowed === undefined ? 'projectIdNotConfigured' : 'invalidAppConfiguration',
        refusalDetail(refusal),
      ),
    ),
})

// Where the browser denies this frame storage, the host page keeps what the modal may remember.
const local = Storage.local()
const kept = local ? undefined : Storage.keptByHost()

const modal = compose({
  config: parsed.config,
  configError: parsed.ok ? undefined : parsed.message,
  storage: Storage.create(local ?? kept),
  mobile: /Mobi|Android|iPhone|iPad/i.test(navigator.userAgent),
  loadRegistry: () => import('./shared/networks.ts'),
  api,
  // These browsers suspend a page that waits in the background, so a pairing counts as connecting.
  pairingConnects:
    /Telegram|iPhone|iPad/i.test(navigator.userAgent) && /Safari|Telegram/i.test(navigator.userAgent),
})

accepted.then(async ({ port, origin, peer }) => {
  // At once, in the same task: the host calls as soon as it is welcomed.
  const messenger = Messenger.create({
    port,
    local: Schema.modalApi,
    implementation: modal.api,
    peer: Schema.hostApi,
    timeoutOf: (method) => (method === 'walletRequest' ? undefined : 30_000),
  })
  // Hosts from 1.2 on keep state; an older one leaves the modal with memory for this page load.
  if (kept && Handshake.supports(peer, { major: 1, minor: 2 })) await kept.attach(messenger.remote)
  void modal.start({ host: messenger.remote, origin })
  whenIdle(preload)
})

void patterns.then((allowed) => {
  if (allowed === undefined) modal.alert('projectIdNotConfigured')
})
if (parsed.config.embedded) document.documentElement.dataset.embedded = 'true'
Theme.apply(document.documentElement, {
  mode: parsed.config.themeMode,
  variables: parsed.config.themeVariables,
})

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <App modal={modal} />
    </StrictMode>,
  )

function refusalDetail(refusal: Handshake.Refusal): string | undefined {
  if (refusal === 'version') return texts.alerts.refusedVersion
  if (refusal === 'project') return texts.alerts.refusedProject
  return undefined
}

/**
 * Fetches, while idle, what the first connect needs: the Account chunk and the EVM checksum (keccak), so a
 * connect shows the account without a wait.
 */
function preload() {
  const ignore = () => {
    // Offline or a stale deployment; the real use reports it if it is actually needed.
  }
  preloadAccount().catch(ignore)
  import('@airlock/bridge-protocol/Address').catch(ignore)
}

function whenIdle(task: () => void) {
  if ('requestIdleCallback' in window) window.requestIdleCallback(task, { timeout: 2_000 })
  else setTimeout(task, 200)
}
