// The source view: where a file comes from — a URL, a local file (picked or dropped), the sample files
// (web/samples/manifest.json) — and the keys of an encrypted one, which stay in the form's memory only.
import { formatBytes } from './format.js'
import { $ } from './page.js'

/**
 * A sample of web/samples/manifest.json (testkit/demo-samples.js writes it), as the page uses it.
 * @typedef {{ file: string, title: string, sizeBytes: number,
 *   decryption?: { footerKey?: string, columnKeys?: Record<string, string>, aadPrefix?: string },
 *   probe: { column: string, values: string[], absent: string[] } }} Sample
 */

export const KEY_FIELDS = ['footer-key-input', 'column-keys-input', 'aad-prefix-input']

/**
 * options.decryption from the key fields, or undefined when they are empty. The keys go to the worker
 * by postMessage and live in memory only: never in the URL, storage or the console.
 */
export function decryptionFromForm() {
  const key = (/** @type {string} */ text) => {
    const t = text.trim()
    return /^hex:(?:[0-9a-fA-F]{2})+$/.test(t) ? Uint8Array.from(t.slice(4).match(/../g) ?? [], (h) => parseInt(h, 16)) : t
  }
  const footerKey = /** @type {HTMLInputElement} */ ($('footer-key-input')).value
  const aadPrefix = /** @type {HTMLInputElement} */ ($('aad-prefix-input')).value
  /** @type {Record<string, Uint8Array | string>} */
  const columnKeys = {}
  for (const line of /** @type {HTMLTextAreaElement} */ ($('column-keys-input')).value.split('\n')) {
    const at = line.indexOf('=')
    if (at > 0) columnKeys[line.slice(0, at).trim()] = key(line.slice(at + 1))
  }
  if (!footerKey.trim() && !aadPrefix && Object.keys(columnKeys).length === 0) return undefined
  return { ...(footerKey.trim() ? { footerKey: key(footerKey) } : {}), ...(aadPrefix ? { aadPrefix } : {}), columnKeys }
}

/** @param {string} text */
export function resolveUrl(text) {
  const trimmed = text.trim()
  try {
    return new URL(trimmed, location.href).href // relative paths resolve against the page, not the worker
  } catch {
    return trimmed
  }
}

/**
 * Puts an encrypted sample's keys (public demo keys, from the manifest) into the key fields, or clears
 * keys an earlier sample put there when this one needs none; keys a person typed are left alone. Like
 * typed keys they stay in the fields' memory only: never in the URL, storage or the console.
 * @param {Pick<Sample, 'file' | 'decryption'>} sample
 */
export function useSampleKeys(sample) {
  const keys = /** @type {HTMLDetailsElement} */ ($('keys'))
  const [footer, columns, aad] = KEY_FIELDS.map((id) => /** @type {HTMLInputElement} */ ($(id)))
  const note = $('keys-note')
  if (sample.decryption) {
    const { footerKey = '', columnKeys = {}, aadPrefix = '' } = sample.decryption
    footer.value = footerKey
    columns.value = Object.entries(columnKeys).map(([column, key]) => `${column}=${key}`).join('\n')
    aad.value = aadPrefix
    keys.dataset.filledBy = sample.file
    keys.open = true
    note.textContent = `Filled in for ${sample.file}: its footer key is the public demo key "${footerKey}" ` +
      '(published in the project docs), so this sample protects nothing; it shows probing a file with keys.'
    note.hidden = false
  } else if (keys.dataset.filledBy) {
    for (const field of [footer, columns, aad]) field.value = ''
    forgetSampleKeys()
  }
}

/** The key fields no longer hold a sample's keys (cleared, or edited by hand). */
export function forgetSampleKeys() {
  delete $('keys').dataset.filledBy
  $('keys-note').hidden = true
}

/**
 * @param {(url: string, preset: { column: string, values: string[] }) => void} openSample a sample was clicked
 * @returns {Promise<{ samples: Sample[] } | undefined>} the manifest, or undefined without one
 */
export async function loadSamples(openSample) {
  const list = $('sample-list')
  /** @type {{ samples: Sample[] }} */
  let manifest
  try {
    const response = await fetch('samples/manifest.json', { cache: 'no-store' })
    if (!response.ok) throw new Error(String(response.status))
    manifest = await response.json()
  } catch {
    list.textContent = 'none yet: `npm start` writes them with DuckDB.'
    $('samples').hidden = false
    return undefined
  }
  list.replaceChildren(...manifest.samples.map((s) => {
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'sample'
    button.dataset.sample = s.file
    button.title = `${s.title} — ${formatBytes(s.sizeBytes)}${s.decryption ? ' — its key is a public demo key' : ''}`
    button.textContent = `${s.file} · ${formatBytes(s.sizeBytes)}${s.decryption ? ' · encrypted' : ''}`
    button.addEventListener('click', () => {
      const url = sampleUrl(s)
      $('url-input').value = url
      useSampleKeys(s)
      openSample(url, { column: s.probe.column, values: [...s.probe.values, ...s.probe.absent] })
    })
    return button
  }))
  $('samples').hidden = false
  return manifest
}

export const sampleUrl = (/** @type {Pick<Sample, 'file'>} */ sample) => new URL(`samples/${sample.file}`, location.href).href
