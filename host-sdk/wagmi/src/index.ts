export { type AirlockParameters, airlock } from './airlock.ts'
