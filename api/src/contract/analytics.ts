/**
 * Analytics: `GET /getAnalyticsConfig` and `POST /e`.
 */
import * as S from '@airlock/bridge-protocol/Shape'

export const analyticsAnswer = S.object({ isAnalyticsEnabled: S.boolean })
export type AnalyticsAnswer = S.Infer<typeof analyticsAnswer>

/** `POST /e`'s body. `props` is the event's data (plus the address when connected). */
export const event = S.object({
  eventId: S.string(36, 36, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i),
  url: S.string(2048, 1, /^https?:\/\/\S+$/),
  domain: S.string(253, 1, /^[a-z0-9.-]+(:\d{1,5})?$/i),
  timestamp: S.number(0, 8.64e15),
  props: S.check(
    S.record(S.unknown, 32),
    (props) => JSON.stringify(props).length <= 8192,
    'props: expected at most 8192 bytes of JSON',
  ),
})
export type Event = S.Infer<typeof event>

/**
 * 202: whether the event was taken to be stored, which happens within moments, in a batch: false when
 * analytics are off or an event with its `eventId` is still waiting to be written. An `eventId` is stored
 * once, whatever a replay is answered.
 */
export const eventAnswer = S.object({ stored: S.boolean })
export type EventAnswer = S.Infer<typeof eventAnswer>
