// The demo page's messages: the status line (with a spinner) and the error box (web/error-view.js says
// what an error means and what to do).
import { explainError } from './error-view.js'
import { $ } from './page.js'

/** @param {string} text */
export function showStatus(text) {
  const el = $('status')
  el.innerHTML = '<span class="spinner" aria-hidden="true"></span>'
  el.append(text)
  el.hidden = false
}

export function hideStatus() {
  $('status').hidden = true
}

/** @param {unknown} error the worker's { code, message }, or anything else thrown */
export function showError(error) {
  const e = explainError(error)
  const box = $('error')
  box.dataset.code = e.code
  const title = /** @type {HTMLElement} */ (box.querySelector('.error-title'))
  title.textContent = e.title
  const message = /** @type {HTMLElement} */ (box.querySelector('.error-message'))
  message.textContent = e.message
  const hint = /** @type {HTMLElement} */ (box.querySelector('.error-hint'))
  hint.textContent = e.hint
  hint.hidden = !e.hint
  box.hidden = false
}

export function hideError() {
  $('error').hidden = true
}
