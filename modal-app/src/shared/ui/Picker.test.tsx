// @vitest-environment jsdom
import { act, type ReactNode, useState } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mounted } from '../../testing/dom.ts'
import { forgetRecent, matches, type PickerOption } from './choices.ts'
import { Picker } from './Picker.tsx'

const dom = mounted()
const render = (node: ReactNode) => act(() => dom.root.render(node))
const one = <T extends Element = HTMLElement>(selector: string) => dom.host.querySelector(selector) as T
const all = (selector: string) => [...dom.host.querySelectorAll<HTMLElement>(selector)]
const press = (target: Element, key: string) =>
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
  })
/** Types into the search field as the browser would: the value, then React's input event. */
const type = (text: string) =>
  act(() => {
    const field = one<HTMLInputElement>('[role="combobox"]')
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
    set?.call(field, text)
    field.dispatchEvent(new Event('input', { bubbles: true }))
  })
const listed = () => all('[role="option"]').map((option) => option.dataset.value)
const active = () => {
  const id = one('[role="combobox"]')?.getAttribute('aria-activedescendant')
  return id ? document.getElementById(id)?.dataset.value : undefined
}

const tokens: PickerOption[] = [
  { value: 'native', label: 'ETH', detail: 'Ether', amount: '1.5', icon: { seed: 'eth' } },
  {
    value: '0x5fbd',
    label: 'ALT',
    detail: 'Airlock Test',
    amount: '1,000,000',
    icon: { url: 'https://icons.example/alt.png', seed: 'alt' },
    keywords: ['0x5FbDB2315678afecb367f032d93F642f64180aa3'],
  },
  { value: '0xdc64', label: 'tUSD', detail: 'Airlock Test USD', amount: '12', icon: { seed: 'tusd' } },
]

/** A Picker holding its own choice, as a form does; `changes` records what it reported. */
function Holder({ changes, recent }: { changes: (value: string) => void; recent?: string }) {
  const [value, setValue] = useState('native')
  return (
    <form>
      <Picker
        id="asset"
        label="Token"
        value={value}
        options={tokens}
        recent={recent}
        testId="send-asset"
        onChange={(next) => {
          changes(next)
          setValue(next)
        }}
      />
      <input aria-label="Amount" />
    </form>
  )
}

beforeEach(() => {
  forgetRecent()
  // jsdom lays nothing out.
  Element.prototype.scrollIntoView = () => {}
})

describe('Picker', () => {
  it('is a labelled button naming its choice, with the choice’s icon and balance, its list closed', () => {
    render(<Holder changes={() => {}} />)
    const button = one<HTMLButtonElement>('button')
    expect(button.getAttribute('aria-haspopup')).toBe('listbox')
    expect(button.getAttribute('aria-expanded')).toBe('false')
    // Named by its label, then by what it shows: the choice and its balance.
    expect(button.getAttribute('aria-labelledby')).toBe('asset-label asset')
    expect([one('#asset-label').textContent, one('.picker-value').textContent]).toEqual(['Token', 'ETH'])
    expect(one<HTMLLabelElement>('label').htmlFor).toBe('asset')
    expect(one('.picker-icon svg.choice-icon')).not.toBeNull()
    expect(button.textContent).toContain('1.5')
    expect(one('[role="listbox"]')).toBeNull()
  })

  it('opens with the arrows, focuses its search on the chosen option, moves and takes a choice with Enter', () => {
    const changes = vi.fn()
    render(<Holder changes={changes} />)
    const button = one<HTMLButtonElement>('button')
    press(button, 'ArrowDown')
    expect(button.getAttribute('aria-expanded')).toBe('true')
    const field = one<HTMLInputElement>('[role="combobox"]')
    expect(document.activeElement).toBe(field)
    expect(field.getAttribute('aria-controls')).toBe(one('[role="listbox"]').id)
    expect(listed()).toEqual(['native', '0x5fbd', '0xdc64'])
    expect(active()).toBe('native')
    expect(one('[role="option"][aria-selected="true"]').dataset.value).toBe('native')
    press(field, 'ArrowDown')
    press(field, 'ArrowDown')
    press(field, 'ArrowDown')
    // The last stays active: the list does not wrap.
    expect(active()).toBe('0xdc64')
    press(field, 'ArrowUp')
    expect(active()).toBe('0x5fbd')
    press(field, 'Enter')
    expect(changes).toHaveBeenCalledWith('0x5fbd')
    expect(one('[role="listbox"]')).toBeNull()
    expect(document.activeElement).toBe(button)
    expect(button.dataset.value).toBe('0x5fbd')
    expect(one('.picker-icon img.choice-icon')?.getAttribute('src')).toBe('https://icons.example/alt.png')
  })

  it('filters as the visitor types, from the closed button too, by name, detail or address', () => {
    const changes = vi.fn()
    render(<Holder changes={changes} />)
    press(one('button'), 't')
    expect(one<HTMLInputElement>('[role="combobox"]').value).toBe('t')
    expect(listed()).toEqual(['0x5fbd', '0xdc64'])
    type('tu')
    expect(listed()).toEqual(['0xdc64'])
    expect(active()).toBe('0xdc64')
    type('0x5fbdb2')
    expect(listed()).toEqual(['0x5fbd'])
    type('nothing')
    expect(listed()).toEqual([])
    expect(one('[role="status"]').textContent).toBe('Nothing matches')
    press(one('[role="combobox"]'), 'Enter')
    expect(changes).not.toHaveBeenCalled()
  })

  it('closes on Escape without a choice, and keeps the modal’s Escape from closing the modal', () => {
    const changes = vi.fn()
    const modalEscape = vi.fn()
    const onKey = (event: KeyboardEvent) => {
      if (!event.defaultPrevented) modalEscape()
    }
    document.addEventListener('keydown', onKey)
    try {
      render(<Holder changes={changes} />)
      press(one('button'), 'ArrowDown')
      press(one('[role="combobox"]'), 'Escape')
      expect(one('[role="listbox"]')).toBeNull()
      expect(document.activeElement).toBe(one('button'))
      expect(modalEscape).not.toHaveBeenCalled()
      expect(changes).not.toHaveBeenCalled()
    } finally {
      document.removeEventListener('keydown', onKey)
    }
  })

  it('takes a choice by pointer, and closes when the focus leaves it', () => {
    const changes = vi.fn()
    render(<Holder changes={changes} />)
    act(() => one<HTMLButtonElement>('button').click())
    act(() => all('[role="option"]')[2]?.click())
    expect(changes).toHaveBeenCalledWith('0xdc64')
    act(() => one<HTMLButtonElement>('button').click())
    expect(one('[role="listbox"]')).not.toBeNull()
    act(() => one<HTMLInputElement>('[aria-label="Amount"]').focus())
    expect(one('[role="listbox"]')).toBeNull()
  })

  it('lists the recent choices of its kind first, in a group of their own, and only while not searching', () => {
    render(<Holder changes={() => {}} recent="token:eip155:1" />)
    press(one('button'), 'ArrowDown')
    expect(all('[role="group"]')).toHaveLength(0)
    type('tusd')
    press(one('[role="combobox"]'), 'Enter')
    press(one('button'), 'ArrowDown')
    const groups = all('[role="group"]').map((group) => ({
      name: document.getElementById(group.getAttribute('aria-labelledby') ?? '')?.textContent,
      options: [...group.querySelectorAll<HTMLElement>('[role="option"]')].map((o) => o.dataset.value),
    }))
    expect(groups).toEqual([
      { name: 'Recent', options: ['0xdc64'] },
      { name: 'Token', options: ['native', '0x5fbd'] },
    ])
    // The chosen one is active when the list opens, wherever it is listed.
    expect(active()).toBe('0xdc64')
    type('e')
    expect(all('[role="group"]')).toHaveLength(0)
    expect(listed()).toEqual(['native'])
  })
})

describe('matches', () => {
  it('finds an option by the beginning of any of its words, every word typed, any case', () => {
    const alt = tokens[1] as PickerOption
    expect(['alt', 'AIR test', 'test', '0x5fbd', ''].map((query) => matches(alt, query))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ])
    expect(['lt', 'air usd', 'eth'].map((query) => matches(alt, query))).toEqual([false, false, false])
  })
})
