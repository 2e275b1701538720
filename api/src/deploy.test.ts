import { existsSync, readFileSync } from 'node:fs'
import Ajv from 'ajv'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { check } from './ConfigFile.ts'

// The container files cannot run here (no Docker daemon in CI); their structure is checked instead, the
// Compose file against the specification's schema. The image's program itself, the built
// server, is run for real by server.test.ts.
const root = new URL('../../', import.meta.url)
const text = (path: string) => readFileSync(new URL(path, root), 'utf8')

type Service = {
  image?: string
  build?: string | { context: string }
  profiles?: string[]
  environment?: Record<string, string>
  volumes?: string[]
  ports?: string[]
  depends_on?: Record<string, { condition: string }>
}
// Compose reads YAML's merge keys (`<<: *node`).
const compose = parse(text('docker-compose.yml'), { merge: true }) as {
  services: Record<string, Service>
  volumes: Record<string, unknown>
}
const { api, postgres } = compose.services as { api: Service; postgres: Service }

/** Compose's `${NAME:-default}` with its default, as a run without that variable sees it. */
const defaults = (value: string) => value.replace(/\$\{\w+:-([^}]*)\}/g, '$1')

// The Compose Specification's own JSON schema (compose-spec/compose-spec, schema/compose-spec.json at
// 170098ba, Apache-2.0), vendored: `docker compose config` needs a Docker install, which CI has not, and a
// check that skipped itself there proved nothing. It names draft-07 by an https address Ajv does not file
// draft-07 under (Ajv's own draft-07 is its default), and marks fields `deprecated`, a keyword of later drafts
// that a draft-07 validator only has to tolerate.
const { $schema: _draft07, ...composeSchema } = JSON.parse(text('api/vendor/compose-spec.json'))
const validateCompose = new Ajv({ allErrors: true, strict: false }).compile(composeSchema)

describe('docker-compose.yml', () => {
  it('is valid Compose (the Compose Specification’s JSON schema)', () => {
    validateCompose(compose)
    expect(validateCompose.errors ?? []).toEqual([])
  })

  it('runs the API image on the PostgreSQL service, only when asked, on loopback', () => {
    expect(api.build).toBe('.')
    expect(api.profiles).toEqual(['api'])
    expect(api.depends_on).toEqual({ postgres: { condition: 'service_healthy' } })
    const url = new URL(defaults(api.environment?.DATABASE_URL ?? ''))
    expect({ protocol: url.protocol, host: url.host, db: url.pathname }).toEqual({
      protocol: 'postgres:',
      host: 'postgres:5432',
      db: `/${postgres.environment?.POSTGRES_DB}`,
    })
    expect(url.password).toBe(defaults(postgres.environment?.POSTGRES_PASSWORD ?? ''))
    expect(api.ports?.map(defaults)).toEqual(['127.0.0.1:8787:8787'])
  })

  it("mounts a configuration the server accepts where the image's AIRLOCK_CONFIG looks", () => {
    const [source, target, mode] = defaults(api.volumes?.[0] ?? '').split(':')
    expect({ target, mode }).toEqual({ target: '/etc/airlock/airlock.config.json', mode: 'ro' })
    expect(text('Dockerfile')).toContain(`AIRLOCK_CONFIG=${target}`)
    expect(() => check(JSON.parse(text(source as string)), source as string)).not.toThrow()
  })

  it('names only services and volumes it declares', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const needed of Object.keys(service.depends_on ?? {}))
        expect(compose.services, name).toHaveProperty(needed)
      for (const volume of service.volumes ?? []) {
        const source = defaults(volume).split(':')[0] as string
        if (source.startsWith('.')) expect(existsSync(new URL(source, root)), `${name}: ${source}`).toBe(true)
        else expect(compose.volumes, `${name}: ${source}`).toHaveProperty(source)
      }
    }
  })
})

describe('Dockerfile', () => {
  const stages = text('Dockerfile')
    .split(/^FROM /m)
    .slice(1)
    .map((stage) => `FROM ${stage}`)
  const runtime = stages[stages.length - 1] ?? ''

  it('builds with the repository, then runs the built server alone, as an unprivileged user', () => {
    expect(stages[0]).toMatch(/^FROM node:20\S* AS build/)
    expect(stages[0]).toContain('RUN npm run build -w @airlock/api')
    expect(runtime).toMatch(/^FROM node:20-\S*slim AS runtime/)
    expect(runtime.match(/^COPY .*$/gm)).toEqual([
      'COPY --from=build --chown=root:root /app/api/dist ./api/dist',
    ])
    expect(runtime).toMatch(/^USER node$/m)
    expect(runtime.indexOf('USER node')).toBeLessThan(runtime.indexOf('CMD'))
    expect(runtime).toMatch(
      /^CMD \["node", "api\/dist\/server\.js", "--host", "0\.0\.0\.0", "--api-port", "8787"\]$/m,
    )
    expect(runtime).toMatch(/^EXPOSE 8787$/m)
  })

  it("keeps the host's installs and builds out of the build context", () => {
    const ignored = text('.dockerignore').split('\n')
    for (const path of ['**/node_modules', '**/dist', '**/.airlock-data', '.git'])
      expect(ignored).toContain(path)
  })
})
