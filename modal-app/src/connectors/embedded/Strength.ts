/**
 * How long a recovery password holds against an offline guesser, by zxcvbn's estimate (`@zxcvbn-ts/core`
 * with its common dictionaries: 30,000 leaked passwords, words, keyboard walks, dates, sequences, repeats,
 * l33t). A chunk of its own, loaded only when a visitor without a passkey chooses a password: its
 * dictionaries are most of its bytes.
 *
 * The bar is zxcvbn's "strong" (10¹⁰ guesses or more): whoever holds the sealed recovery share and a session
 * tries passwords offline, each guess costing PBKDF2's 600,000 rounds (`Sealing.passwordKey`), so 10¹⁰ guesses
 * are years of one GPU's work; 10⁸ would be days.
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import * as common from '@zxcvbn-ts/language-common'

/** log10 of the guesses a password must need. */
const strongGuessesLog10 = 10

/** Why zxcvbn finds a password weak (its warning keys), when it says. */
type Weakness =
  | 'straightRow'
  | 'keyPattern'
  | 'simpleRepeat'
  | 'extendedRepeat'
  | 'sequences'
  | 'recentYears'
  | 'dates'
  | 'topTen'
  | 'topHundred'
  | 'common'
  | 'similarToCommon'
  | 'wordByItself'
  | 'namesByThemselves'
  | 'commonNames'
  | 'userInputs'

export type Estimate = { strong: boolean; guessesLog10: number; weakness?: Weakness | undefined }

let estimator: ZxcvbnFactory | undefined

/**
 * @param userInputs words the guesser knows too (the visitor's email, the service's name)
 * @example Strength.estimate('password1234', ['ada@example.com']) // { strong: false, weakness: 'similarToCommon', … }
 */
export function estimate(password: string, userInputs: readonly string[] = []): Estimate {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary },
    graphs: common.adjacencyGraphs,
  })
  const inputs = [...userInputs.flatMap((input) => input.split(/[@.+_-]/)), 'airlock']
  const result = estimator.check(password, inputs.filter(Boolean))
  const warning = result.feedback.warning as Weakness | null
  return {
    strong: result.guessesLog10 >= strongGuessesLog10,
    guessesLog10: result.guessesLog10,
    ...(warning ? { weakness: warning } : {}),
  }
}
