/** The alerts that replace the modal's content when it cannot serve this page; each is shown once. */
import { texts } from '../shared/texts.ts'

export type Kind = 'invalidAppConfiguration' | 'projectIdNotConfigured' | 'invalidConfig'
export type Alert = { kind: Kind; title: string; detail: string }

// Read when an alert is added, not when the module loads: by then the visitor's language is in.
const alertTexts = (): Record<Kind, { title: string; detail: string }> => ({
  invalidAppConfiguration: {
    title: texts.alerts.invalidAppConfiguration,
    detail: texts.alerts.invalidAppConfigurationDetail,
  },
  projectIdNotConfigured: {
    title: texts.alerts.projectIdNotConfigured,
    detail: texts.alerts.projectIdNotConfiguredDetail,
  },
  invalidConfig: { title: texts.alerts.invalidConfig, detail: '' },
})

export function create(onChange: () => void) {
  let alerts: Alert[] = []
  const dismissals = new Set<() => void>()
  return {
    list: () => alerts,
    /** `onDismiss`: the visitor closed the alert (a refused host hides the frame then). */
    add(kind: Kind, detail?: string, onDismiss?: () => void) {
      if (onDismiss) dismissals.add(onDismiss)
      const text = alertTexts()[kind]
      // Shown once: a later word on the same alert (the hello's named cause) only sharpens its detail.
      if (alerts.some((item) => item.kind === kind)) {
        if (detail === undefined) return
        alerts = alerts.map((item) => (item.kind === kind ? { ...item, detail } : item))
        return onChange()
      }
      alerts = [...alerts, { kind, title: text.title, detail: detail ?? text.detail }]
      onChange()
    },
    dismiss() {
      for (const dismiss of dismissals) dismiss()
      dismissals.clear()
    },
  }
}
export type Alerts = ReturnType<typeof create>
