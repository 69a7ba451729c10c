// What the demo page's views share: its elements by id, the one worker every view asks, and the state of
// the file being shown (web/app.js wires the views together).
import { WorkerClient } from './worker-client.js'

/**
 * The elements of web/index.html that $() returns as more than an HTMLElement, by id.
 * @typedef {{ 'url-input': HTMLInputElement, 'open-url': HTMLButtonElement, 'file-input': HTMLInputElement,
 *   'columns-table': HTMLTableElement, 'column-select': HTMLSelectElement, 'values-input': HTMLTextAreaElement,
 *   'mode-select': HTMLSelectElement, 'probe-button': HTMLButtonElement, 'confirm-button': HTMLButtonElement, 'show-all': HTMLInputElement,
 *   'fpp-input': HTMLInputElement, 'advice-button': HTMLButtonElement, 'advice-table': HTMLTableElement }} PageElements
 */

/**
 * @template {string} Id
 * @param {Id} id
 * @returns {Id extends keyof PageElements ? PageElements[Id] : HTMLElement}
 */
export const $ = (id) => /** @type {any} */ (document.getElementById(id))
export const worker = new WorkerClient(new URL('./probe-worker.js', import.meta.url))

/**
 * @typedef {import('./probe-worker.js').Handlers} Handlers
 * @typedef {Awaited<ReturnType<Handlers['open']>> & { kind: 'url' | 'local', url: string | undefined, label: string }} OpenFile
 *   what the worker's open returned, and where the file came from
 * @typedef {Awaited<ReturnType<Handlers['health']>>} HealthReply
 * @typedef {HealthReply | { pending: true } | { error: import('./worker-client.js').WorkerError }} ColumnHealth
 *   a column's health check: its reply, under way, or failed
 * @typedef {{ generation: number, file: OpenFile | undefined, health: Map<string, ColumnHealth>,
 *   healthStats: import('../js/index.js').IoStats | undefined, lastProbe: Awaited<ReturnType<Handlers['probe']>> | undefined,
 *   probeController: AbortController | undefined, healthController: AbortController | undefined,
 *   adviceController: AbortController | undefined }} PageState
 */

/** @type {PageState} */
export const state = {
  generation: 0, // bumped whenever another file is opened: replies about an older file are dropped
  file: undefined, // what the worker's open returned, plus { kind: 'url' | 'local', url? }
  health: new Map(), // column → health reply, or { error }
  healthStats: undefined,
  lastProbe: undefined,
  probeController: undefined,
  healthController: undefined,
  adviceController: undefined,
}

/** The file being shown: the views that draw it run only once the worker has opened one. */
export function shownFile() {
  if (!state.file) throw new Error('no file is open')
  return state.file
}
