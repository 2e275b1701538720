/**
 * The forms' choice of one (a token, a network, a currency) as WAI-ARIA's combobox pattern draws it
 * (https://www.w3.org/WAI/ARIA/apg/patterns/combobox/): a button showing the choice with its icon, and a
 * popup with a search field (the combobox) over a listbox of choices with their icons and balances, the
 * visitor's recent choices first. The keyboard drives it all: Enter, Space or the arrows open it, typing
 * filters, the arrows move through the choices, Enter takes one, Escape closes it without closing the
 * modal. Only the features' lazy views import it, so it loads with the form that shows it.
 */
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { ChoiceIcon } from './ChoiceIcon.tsx'
import { matches, type PickerOption, recentOf, remember } from './choices.ts'
import { pickerTexts } from './pickerTexts.ts'
import './Picker.css'

export type { PickerOption }

export type PickerProps = {
  id: string
  /** What is chosen: the visible label's text, or the accessible name where `labelHidden`. */
  label: string
  /** No label above it (a currency beside an amount): the label is read out only. */
  labelHidden?: boolean | undefined
  value: string
  options: readonly PickerOption[]
  onChange(value: string): void
  /** Where the visitor's recent choices of this kind are kept (`token:eip155:1`); none lists none. */
  recent?: string | undefined
  testId?: string | undefined
  disabled?: boolean | undefined
  /** The ids of the lines that describe the choice (a balance, the error). */
  describedBy?: string | undefined
  /** The search field's placeholder, where the kind of choice says more than "Search". */
  placeholder?: string | undefined
  /** What an empty search says, where the kind of choice says more than "No match". */
  empty?: ((query: string) => ReactNode) | undefined
}

/**
 * A labelled choice of one, drawn as a button whose popup lists the choices.
 * @example
 * <Picker id={field('asset')} label="Token" value={asset} options={tokens} recent="token:eip155:1" onChange={pick} />
 */
export function Picker(props: PickerProps) {
  const { id, value, options } = props
  const [open, setOpen] = useState(false)
  const [typed, setTyped] = useState('')
  const trigger = useRef<HTMLButtonElement>(null)
  const chosen = options.find((option) => option.value === value)
  const close = (refocus: boolean) => {
    setOpen(false)
    setTyped('')
    if (refocus) trigger.current?.focus()
  }
  const choose = (option: PickerOption) => {
    if (props.recent) remember(props.recent, option.value)
    close(true)
    if (option.value !== value) props.onChange(option.value)
  }
  const openWith = (query: string) => {
    setTyped(query)
    setOpen(true)
  }
  const onTriggerKey = (event: KeyboardEvent) => {
    if (['ArrowDown', 'ArrowUp'].includes(event.key)) {
      event.preventDefault()
      openWith('')
    } else if (
      event.key.length === 1 &&
      event.key !== ' ' &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey
    ) {
      // Type to search from the closed button too, as a native select lets one type a choice's name.
      event.preventDefault()
      openWith(event.key)
    }
  }
  return (
    <div className="picker">
      <label className={props.labelHidden ? 'sr-only' : 'label'} id={`${id}-label`} htmlFor={id}>
        {props.label}
      </label>
      <div className="picker-anchor">
        {/* Beside the button's text, not in it: a monogram's letter would read as part of the button's
            visible text, which its name must hold (WCAG 2.5.3). */}
        {chosen?.icon && (
          <span className="picker-icon">
            <ChoiceIcon icon={chosen.icon} name={chosen.label} size={20} />
          </span>
        )}
        <button
          ref={trigger}
          id={id}
          type="button"
          className={chosen?.icon ? 'search picker-button picker-button-icon' : 'search picker-button'}
          data-testid={props.testId}
          data-value={value}
          aria-haspopup="listbox"
          aria-expanded={open}
          aria-controls={open ? `${id}-popup` : undefined}
          // Its label, then what it shows (the choice and its balance), so the name holds the visible text
          // (WCAG 2.5.3).
          aria-labelledby={`${id}-label ${id}`}
          aria-describedby={props.describedBy}
          disabled={props.disabled}
          onClick={() => (open ? close(false) : openWith(''))}
          onKeyDown={onTriggerKey}
        >
          <span className="picker-value">{chosen ? chosen.label : ''}</span>
          {chosen?.amount && (
            <>
              {' '}
              <span className="picker-amount muted">{chosen.amount}</span>
            </>
          )}
          <span className="picker-arrow" aria-hidden="true" />
        </button>
        {open && (
          <div className="picker-popup" id={`${id}-popup`}>
            <Choices
              label={props.label}
              options={options}
              value={value}
              initialQuery={typed}
              recent={props.recent}
              placeholder={props.placeholder}
              empty={props.empty}
              onChoose={choose}
              onEscape={() => close(true)}
              // Focus gone elsewhere (a click outside, Tab): the popup closes, nothing chosen. The button
              // toggles it itself.
              onLeave={(to) => to !== trigger.current && close(false)}
            />
          </div>
        )}
      </div>
    </div>
  )
}

/** A search field over a listbox of choices: the combobox itself, in the Picker's popup. */
function Choices(props: {
  label: string
  options: readonly PickerOption[]
  value: string
  onChoose(option: PickerOption): void
  /** Escape in the field; without it Escape is the modal's (it goes back). */
  onEscape?: (() => void) | undefined
  /** The field lost the focus to `to`. */
  onLeave?: ((to: EventTarget | null) => void) | undefined
  initialQuery?: string | undefined
  recent?: string | undefined
  /** The field's placeholder, where the kind of choice says more than "Search". */
  placeholder?: string | undefined
  /** What an empty search says, where the kind of choice says more. */
  empty?: ((query: string) => ReactNode) | undefined
  testIds?: { search?: string; option?: string } | undefined
}) {
  const id = useId()
  const [query, setQuery] = useState(props.initialQuery ?? '')
  const found = props.options.filter((option) => matches(option, query))
  const recent = query.trim() || !props.recent ? [] : recentOf(props.recent, props.options)
  const rest = found.filter((option) => !recent.includes(option))
  const listed = [...recent, ...rest]
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      listed.findIndex((option) => option.value === props.value),
    ),
  )
  const at = Math.min(active, listed.length - 1)
  const field = useRef<HTMLInputElement>(null)
  const list = useRef<HTMLDivElement>(null)
  const optionId = (index: number) => `${id}-option-${index}`

  useEffect(() => field.current?.focus(), [])
  // The active choice stays in sight as the arrows move it.
  useEffect(() => {
    if (at >= 0)
      list.current?.ownerDocument.getElementById(optionId(at))?.scrollIntoView({ block: 'nearest' })
  })

  const onKeyDown = (event: KeyboardEvent) => {
    const move = (to: number) => {
      event.preventDefault()
      setActive(Math.max(0, Math.min(listed.length - 1, to)))
    }
    if (event.key === 'ArrowDown') move(at + 1)
    else if (event.key === 'ArrowUp') move(at - 1)
    else if (event.key === 'PageDown') move(at + 5)
    else if (event.key === 'PageUp') move(at - 5)
    else if (event.key === 'Enter') {
      // Enter takes the active choice; it never submits the form around the popup.
      event.preventDefault()
      const option = listed[at]
      if (option) props.onChoose(option)
    } else if (event.key === 'Escape' && props.onEscape) {
      // Handled here, so the modal's own Escape (which closes it) leaves it open.
      event.preventDefault()
      props.onEscape()
    }
  }

  const row = (option: PickerOption, index: number) => (
    // biome-ignore lint/a11y/useFocusableInteractive: the field keeps the focus and names the active option (aria-activedescendant), as the combobox pattern has it.
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the field's (arrows, Enter), which stays focused.
    <div
      key={`${option.value} ${index}`}
      id={optionId(index)}
      role="option"
      className="picker-option"
      aria-selected={option.value === props.value}
      data-active={index === at || undefined}
      data-testid={props.testIds?.option}
      data-value={option.value}
      // The field keeps the focus (and the caret) while the pointer chooses.
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => props.onChoose(option)}
    >
      {option.icon && <ChoiceIcon icon={option.icon} name={option.label} size={28} />}
      <span className="picker-option-name">
        {option.label}
        {option.detail && <span className="muted"> {option.detail}</span>}
      </span>
      {option.amount && (
        <>
          {' '}
          <span className="picker-amount">{option.amount}</span>
        </>
      )}
    </div>
  )

  return (
    <div className="choices">
      <input
        ref={field}
        className="search"
        type="text"
        role="combobox"
        aria-label={`${props.label}: ${pickerTexts.search}`}
        aria-autocomplete="list"
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-activedescendant={at >= 0 ? optionId(at) : undefined}
        data-testid={props.testIds?.search}
        placeholder={props.placeholder ?? pickerTexts.search}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value)
          setActive(0)
        }}
        onKeyDown={onKeyDown}
        onBlur={(event) => props.onLeave?.(event.relatedTarget)}
      />
      <div
        ref={list}
        className="picker-list"
        id={`${id}-list`}
        role="listbox"
        aria-label={props.label}
        // A click on the list (its scrollbar among others) leaves the focus in the field.
        onMouseDown={(event) => event.preventDefault()}
      >
        {recent.length > 0 ? (
          <>
            <Group id={`${id}-recent`} title={pickerTexts.recent}>
              {recent.map((option, index) => row(option, index))}
            </Group>
            {rest.length > 0 && (
              <Group id={`${id}-all`} title={props.label}>
                {rest.map((option, index) => row(option, recent.length + index))}
              </Group>
            )}
          </>
        ) : (
          rest.map((option, index) => row(option, index))
        )}
      </div>
      {listed.length === 0 && (
        <p className="muted" role="status">
          {props.empty ? props.empty(query) : pickerTexts.noMatch}
        </p>
      )}
    </div>
  )
}

/** A titled group of a listbox's choices, as WAI-ARIA's grouped listbox has it. */
function Group({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset is a form's group; this is a listbox's, which holds options only.
    <div role="group" aria-labelledby={id}>
      <div role="presentation" id={id} className="picker-group-title muted">
        {title}
      </div>
      {children}
    </div>
  )
}
