/**
 * A modal origin gone bad, as a page a journey serves on the modal's origin: it welcomes the host SDK's hello
 * as the real modal does, then runs `body`, a script that has `port` (the host's end of the bridge) and
 * `call(id, method, value)`, a raw comlink call on it that resolves with the host's answer.
 */
export const rogueModal = (body: string) => `<!doctype html><script>
  addEventListener('message', async (event) => {
    if (event.source !== parent) return
    const port = event.ports[0]
    port.start()
    port.postMessage({ type: 'airlock:welcome', version: 1 })
    const call = (id, method, value) => new Promise((resolve) => {
      port.addEventListener('message', (m) => m.data && m.data.id === id && resolve(m.data.value))
      port.postMessage({ id, type: 'APPLY', path: [method], argumentList: value === undefined ? [] : [{ type: 'RAW', value }] })
    })
    ${body}
  }, { once: true })
</script>`
