/**
 * What a Picker lists and how it finds a choice: the search (label, detail and further words, such as a
 * token's address) and the visitor's recent choices of each kind, kept for the frame's lifetime only (the
 * modal stores nothing for a choice: a reload starts the list afresh).
 */
import type { Icon } from './ChoiceIcon.tsx'

export type PickerOption = {
  value: string
  /** The choice's name as the button shows it (`ETH`, `USD`, `Airlock Devnet A`). */
  label: string
  /** More, after the name in the list (a token's full name). */
  detail?: string | undefined
  /** A balance, at the end of the row. */
  amount?: string | undefined
  icon?: Icon | undefined
  /** Further words the search finds it by (a token's address). */
  keywords?: readonly string[] | undefined
}

/** How many recent choices of a kind are listed first. */
const kept = 3
const recents = new Map<string, string[]>()

/** Whether an option answers a search: each word of it begins a word of the option's texts, any case. */
export function matches(option: PickerOption, query: string): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return true
  const text = [option.label, option.detail ?? '', ...(option.keywords ?? [])].join(' ').toLowerCase()
  const starts = text.split(/[\s·(),/-]+/)
  return words.every((word) => starts.some((start) => start.startsWith(word)))
}

/** Remembers a choice of `kind` as the most recent. */
export function remember(kind: string, value: string): void {
  const list = (recents.get(kind) ?? []).filter((known) => known !== value)
  recents.set(kind, [value, ...list].slice(0, kept))
}

/** The options of `kind` chosen recently, most recent first, among those offered now. */
export function recentOf(kind: string, options: readonly PickerOption[]): PickerOption[] {
  return (recents.get(kind) ?? []).flatMap((value) => options.filter((option) => option.value === value))
}

/** Forgets every recent choice (tests). */
export function forgetRecent(): void {
  recents.clear()
}
