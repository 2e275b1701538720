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
import * as FrameStorage from './core/FrameStorage.ts'
import * as Platform from './core/Platform.ts'
import * as Storage from './core/Storage.ts'
import { App } from './core/ui/App.tsx'
import { preload as preloadAccount } from './features/account/feature.ts'
import * as Locale from './shared/i18n/Locale.ts'
import * as Theme from './shared/Theme.ts'
import { texts } from './shared/texts.ts'
import './styles.css'

const parsed = Config.parse(location.search)
// The host's language if the modal speaks it, else the browser's; the catalogue (a small chunk) is fetched
// now, and the modal renders and starts once it is in, so no text is read in English first.
const language = Locale.use(Locale.negotiate([parsed.config.locale, ...navigator.languages])).then(() =>
  Locale.apply(document.documentElement),
)
const apiUrl = Api.baseUrlOf(document)
const api = Api.create({ baseUrl: apiUrl, projectId: parsed.projectId })
// The modal origin's server refuses for the API when it already knows (see `refusalOf`); otherwise the list
// is asked at once, so it is usually here before the host's hello is.
const served = refusalOf(document)
const origins: Promise<Known> = served ? Promise.resolve({ refused: served }) : api.origins()
// An alert's texts are read when it is added: in the visitor's language, so once that is in.
const whenKnown = Promise.all([origins, language]).then(([known]) => known)

// Where the page's CSP refuses the frame, the host opens this page as a window of its own: its host is then
// the window that opened it, and the rest is the same.
const host: Handshake.AcceptOptions['window'] =
  new URLSearchParams(location.search).get('surface') === 'window'
    ? {
        addEventListener: window.addEventListener.bind(window),
        removeEventListener: window.removeEventListener.bind(window),
        parent: window.opener,
      }
    : window

const accepted = Handshake.accept({
  window: host,
  projectId: parsed.projectId,
  isAllowed: async (origin) => {
    const known = await origins
    if ('refused' in known) return refused(known.refused, origin)
    return Origin.isAllowed(known.allowed, origin) || refused('origin', origin)
  },
  onRefused: (refusal, origin, dismiss) =>
    void whenKnown.then((known) =>
      modal.alert(alertOf(refusal), refusalDetail(refusal, origin, known), dismiss),
    ),
})

// The frame's own storage; where the browser denies it, first-party storage it grants, else the host page.
const backend = FrameStorage.backend()

const modal = compose({
  config: parsed.config,
  configError: parsed.ok ? undefined : parsed.message,
  storage: Storage.create(backend),
  mobile: Platform.isMobile(navigator),
  loadRegistry: () => import('./shared/networks.ts'),
  api,
  pairingConnects: Platform.pairingConnects(navigator, parsed.config.telegram),
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
  backend.serve(origin)
  // Hosts from 1.2 on keep state; an older one leaves the modal with memory for this page load.
  await Promise.all([backend.ready, language])
  if (Handshake.supports(peer, { major: 1, minor: 2 })) await backend.attach(messenger.remote)
  void modal.start({ host: messenger.remote, origin })
  // The first show's work, done while the frame is still hidden, so a click only reveals.
  whenIdle(modal.prepare)
  whenIdle(preload)
})

// Said before any hello, for whoever opens the frame on its own.
void whenKnown.then((known) => {
  if ('refused' in known) modal.alert(alertOf(known.refused))
})
if (parsed.config.embedded) document.documentElement.dataset.embedded = 'true'
Theme.apply(document.documentElement, {
  mode: parsed.config.themeMode,
  variables: parsed.config.themeVariables,
})

const root = document.getElementById('root')
if (root)
  void language.then(() =>
    createRoot(root).render(
      <StrictMode>
        <App modal={modal} />
      </StrictMode>,
    ),
  )

/** What the modal knows of the pages that may use its project. */
type Known = Api.Origins | { refused: 'origin' }

function alertOf(refusal: Handshake.Refusal) {
  return refusal === 'origin' ? 'invalidAppConfiguration' : 'projectIdNotConfigured'
}

/**
 * Why this page may not use the project, in the words its developer needs: the cause named, and the fix.
 * The project id is the modal's own (from its URL), never one the host claimed.
 */
function refused(refusal: Handshake.Refused['refusal'], origin: string): Handshake.Refused {
  const id = parsed.projectId
  if (refusal === 'unreachable')
    return { refusal, message: texts.refusals.unreachable(id), fix: texts.refusals.reach(apiUrl) }
  const message = refusal === 'project' ? texts.refusals.project(id) : texts.refusals.origin(origin, id)
  return { refusal, message, fix: texts.refusals.allow(id, origin) }
}

/** What the modal origin's server already decided: `<meta name="airlock:refusal" content="origin">`. */
function refusalOf(doc: Pick<Document, 'querySelector'>): Handshake.Refused['refusal'] | undefined {
  const content = doc.querySelector('meta[name="airlock:refusal"]')?.getAttribute('content')
  return content === 'project' || content === 'origin' || content === 'unreachable' ? content : undefined
}

function refusalDetail(refusal: Handshake.Refusal, origin: string, known: Known): string {
  if (refusal === 'version') return texts.alerts.refusedVersion
  // A hello that named another project than the modal's URL: the page and its modal disagree.
  if (refusal === 'project' && !('refused' in known)) return texts.alerts.refusedProject
  return refused(refusal, origin).message
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
