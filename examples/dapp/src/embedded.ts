/** The ES module build in embedded mode: the modal renders inside #embed and follows its own height. */
import { createAirlock } from '@airlock/host-sdk'

const modalUrl = new URLSearchParams(location.search).get('modal') ?? 'http://airlock.localhost:5174'
const airlock = createAirlock({
  projectId: 'demo',
  modalUrl,
  networks: ['eip155:31337', 'eip155:31338'],
  embedded: '#embed',
})
Object.assign(window, { airlock })
