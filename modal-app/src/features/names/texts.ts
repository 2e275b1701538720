import { define } from '../../shared/i18n/Catalogue.ts'

/** The names feature's texts, loaded with its chunk. docs/behaviour.md's are quoted exactly. */
export const namesTexts = define('names', {
  // docs/behaviour.md §8.
  registerFailed: 'Error registering name {name}',
  suggestionsFailed: 'Error fetching name suggestions',
  unreachable: 'The Airlock API cannot be reached',
  unexpected: 'The Airlock API answered something unexpected',
  label: 'Name',
  hint: 'At least 4 letters, digits or hyphens',
  checking: 'Checking…',
  available: '{name} is available',
  taken: '{name} is taken',
  suggestions: 'Available names',
  register: 'Register',
  registering: 'Sign the registration in your wallet…',
  success: '{name} is yours',
  successNote: 'Apps that read ENS now find your address under this name.',
  done: 'Done',
  makePrimary: 'Make it this address’s primary name',
  primaryNote: 'One transaction: apps that look your address up then show this name.',
  primarySending: 'Confirm in your wallet…',
  primarySet: 'It is your primary name now',
  primaryFailed: 'The transaction failed on chain',
  otherChain: 'Switch to {network} to set a primary name',
})
