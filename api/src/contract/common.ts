/**
 * The query every route takes, and the small shapes the route queries are built from.
 *
 * The modal bundles this contract but parses answers only, so every query shape must tree-shake away:
 * queries name the common fields one by one (a spread is kept by bundlers, it could run a getter), and the
 * helpers are marked free of side effects, so a call whose result is unused is dropped.
 */
import * as S from '@airlock/bridge-protocol/Shape'

/** The project the call is made for. */
export const projectId = S.string(64, 1)
/** The SDK type (`st`) and version (`sv`) clients send with every call: accepted, otherwise unused. */
export const sdkField = S.optional(S.string(64))

/** `projectId`, `st` and `sv`. */
export const common = { projectId, st: sdkField, sv: sdkField }
export const commonQuery = S.object({ projectId, st: sdkField, sv: sdkField })
export type CommonQuery = S.Infer<typeof commonQuery>

/** A query flag: absent, `true` or `false`. */
export const flag = S.optional(S.picklist(['true', 'false']))

/** A decimal integer in `min..max`, as query values are strings. */
export const integer = /* @__NO_SIDE_EFFECTS__ */ (min: number, max: number) =>
  S.check(
    S.string(6, 1, /^\d+$/),
    (value) => Number(value) >= min && Number(value) <= max,
    `expected ${min}..${max}`,
  )

/** A comma-separated list of at most `max` items, each matching `item`. */
export const list = /* @__NO_SIDE_EFFECTS__ */ (item: RegExp, max: number) =>
  S.check(
    S.string(max * 80, 1),
    (value) => value.split(',').length <= max && value.split(',').every((part) => item.test(part)),
    `expected a comma-separated list of at most ${max}`,
  )
