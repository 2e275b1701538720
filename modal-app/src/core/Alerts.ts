/** The alerts that replace the modal's content when it cannot serve this page; each is shown once. */
import { texts } from '../shared/texts.ts'

export type Kind = 'invalidAppConfiguration' | 'projectIdNotConfigured' | 'invalidConfig'
export type Alert = { kind: Kind; title: string; detail: string }

const alertTexts: Record<Kind, { title: string; detail: string }> = {
  invalidAppConfiguration: {
    title: texts.alerts.invalidAppConfiguration,
    detail: texts.alerts.invalidAppConfigurationDetail,
  },
  projectIdNotConfigured: {
    title: texts.alerts.projectIdNotConfigured,
    detail: texts.alerts.projectIdNotConfiguredDetail,
  },
  invalidConfig: { title: texts.alerts.invalidConfig, detail: '' },
}

export function create(onChange: () => void) {
  let alerts: Alert[] = []
  return {
    list: () => alerts,
    add(kind: Kind, detail?: string) {
      if (alerts.some((item) => item.kind === kind)) return
      const text = alertTexts[kind]
      alerts = [...alerts, { kind, title: text.title, detail: detail ?? text.detail }]
      onChange()
    },
  }
}
export type Alerts = ReturnType<typeof create>
