import { describe, expect, it, vi } from 'vitest'
import { allowedOrigins, builtIn, load } from './projects.ts'

describe('projects', () => {
  it('knows the demo project for any localhost port', () => {
    expect(allowedOrigins(load(''), 'demo')).toEqual(['http://localhost:*'])
  })

  it('does not know other projects', () => {
    expect(allowedOrigins(load(''), 'nope')).toBeUndefined()
    expect(allowedOrigins(load(''), 'toString')).toBeUndefined()
  })

  it('is extended by VITE_AIRLOCK_PROJECTS', () => {
    const projects = load('{"shop":["https://shop.example"]}')
    expect(allowedOrigins(projects, 'shop')).toEqual(['https://shop.example'])
    expect(allowedOrigins(projects, 'demo')).toEqual(builtIn.demo)
  })

  it('ignores a malformed extension', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(load('not json')).toBe(builtIn)
    expect(load('{"shop":"https://shop.example"}')).toBe(builtIn)
    expect(error).toHaveBeenCalledTimes(2)
    error.mockRestore()
  })
})
