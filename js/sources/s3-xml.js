// Reads the two XML documents an S3 listing meets — ListBucketResult (ListObjectsV2) and Error — with a
// small, strict XML 1.0 reader: elements, text, CDATA, comments, the five predefined entities and
// character references (XML 1.0 §4.1, §4.6). No DTDs, no external entities: anything else is malformed.

const MAX_DEPTH = 32
/** @type {Readonly<Record<string, string>>} */
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/**
 * One element: its local name (namespace prefix dropped), child elements and text content.
 * @typedef {{ name: string, children: XmlElement[], text: string }} XmlElement
 */

/**
 * Parses a document into its root element. Throws an Error saying where the text is not well-formed.
 * @param {string} text
 * @returns {XmlElement}
 */
export function parseXml(text) {
  let i = 0
  /** @type {XmlElement[]} */
  const stack = []
  /** @type {XmlElement | undefined} */
  let root
  /** @type {(what: string) => never} */
  const fail = (what) => {
    throw new Error(`${what} at character ${i}`)
  }
  if (text.charCodeAt(0) === 0xfeff) i = 1
  while (i < text.length) {
    const lt = text.indexOf('<', i)
    const chunk = lt < 0 ? text.slice(i) : text.slice(i, lt)
    if (chunk) {
      if (stack.length) stack[stack.length - 1].text += decodeEntities(chunk, fail)
      else if (chunk.trim()) fail('text outside the root element')
    }
    if (lt < 0) break
    i = lt
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i)
      if (end < 0) fail('unterminated processing instruction')
      i = end + 2
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i)
      if (end < 0) fail('unterminated comment')
      i = end + 3
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i)
      if (end < 0 || !stack.length) fail('misplaced CDATA section')
      stack[stack.length - 1].text += text.slice(i + 9, end)
      i = end + 3
    } else if (text.startsWith('<!', i)) {
      fail('a DTD or declaration (not accepted)')
    } else if (text.startsWith('</', i)) {
      const end = text.indexOf('>', i)
      if (end < 0) fail('unterminated end tag')
      const name = localName(text.slice(i + 2, end).trim())
      const open = stack.pop()
      if (!open || open.name !== name) fail(`end tag </${name}> does not close <${open?.name ?? ''}>`)
      i = end + 1
    } else {
      const end = tagEnd(text, i)
      if (end < 0) fail('unterminated start tag')
      const selfClosing = text[end - 1] === '/'
      const inner = text.slice(i + 1, selfClosing ? end - 1 : end)
      const name = localName(/^[^\s/>]+/.exec(inner)?.[0] ?? '')
      if (!name) fail('a start tag without a name')
      if (!stack.length && root) fail('a second root element')
      const element = { name, children: [], text: '' }
      if (stack.length) stack[stack.length - 1].children.push(element)
      else root = element
      if (!selfClosing) {
        if (stack.length === MAX_DEPTH) fail(`elements nested deeper than ${MAX_DEPTH}`)
        stack.push(element)
      }
      i = end + 1
    }
  }
  if (stack.length) fail(`<${stack[stack.length - 1].name}> is not closed`)
  if (!root) fail('no root element')
  return /** @type {XmlElement} */ (root)
}

/**
 * The '>' ending the start tag at `start`, skipping quoted attribute values.
 * @param {string} text
 * @param {number} start
 */
function tagEnd(text, start) {
  /** @type {string | undefined} */
  let quote
  for (let j = start + 1; j < text.length; j++) {
    const c = text[j]
    if (quote) {
      if (c === quote) quote = undefined
    } else if (c === '"' || c === "'") {
      quote = c
    } else if (c === '>') {
      return j
    } else if (c === '<') {
      return -1
    }
  }
  return -1
}

/** @param {string} qualified */
function localName(qualified) {
  const colon = qualified.indexOf(':')
  return colon < 0 ? qualified : qualified.slice(colon + 1)
}

/**
 * @param {string} chunk
 * @param {(what: string) => never} fail
 */
function decodeEntities(chunk, fail) {
  if (!chunk.includes('&')) return chunk
  return chunk.replace(/&([^;&\s]*);?/g, (/** @type {string} */ whole, /** @type {string} */ ref) => {
    if (!whole.endsWith(';')) fail('an unterminated entity reference')
    if (ref in ENTITIES) return ENTITIES[ref]
    const m = /^#(?:x([0-9a-f]+)|([0-9]+))$/i.exec(ref)
    if (!m) fail(`an unknown entity &${ref};`)
    const code = m[1] !== undefined ? parseInt(m[1], 16) : Number(m[2])
    // Char production of XML 1.0 §2.2: no NUL, no surrogates, nothing past U+10FFFF.
    if (!(code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) ||
      (code >= 0x10000 && code <= 0x10ffff))) {
      fail(`a character reference to U+${code.toString(16)}, which XML does not allow`)
    }
    return String.fromCodePoint(code)
  })
}

/**
 * The first child element named `name`, or undefined.
 * @param {XmlElement} element
 * @param {string} name
 */
export function child(element, name) {
  return element.children.find((c) => c.name === name)
}

/**
 * The text of the first child named `name`, or undefined when there is none.
 * @param {XmlElement} element
 * @param {string} name
 */
export function childText(element, name) {
  return child(element, name)?.text
}

/**
 * One page of a ListObjectsV2 answer (ListBucketResult). Keys come decoded: URL-decoded when the
 * server honoured encoding-type=url (it says so in EncodingType), else as the XML gave them.
 * @param {string} text
 * @returns {{ objects: Array<{ key: string, size: number, etag: string | undefined }>, truncated: boolean,
 *   nextToken: string | undefined }}
 */
export function parseListBucketResult(text) {
  const root = parseXml(text)
  if (root.name !== 'ListBucketResult') throw new Error(`the document is <${root.name}>, not <ListBucketResult>`)
  const urlEncoded = childText(root, 'EncodingType')?.trim().toLowerCase() === 'url'
  /** @type {Array<{ key: string, size: number, etag: string | undefined }>} */
  const objects = []
  for (const entry of root.children) {
    if (entry.name !== 'Contents') continue
    const rawKey = childText(entry, 'Key')
    if (rawKey === undefined) throw new Error('a <Contents> entry without <Key>')
    const sizeText = childText(entry, 'Size')?.trim()
    const size = sizeText !== undefined && /^\d+$/.test(sizeText) ? Number(sizeText) : NaN
    if (!Number.isSafeInteger(size)) throw new Error(`the <Size> of a listed object is not a byte count: ${JSON.stringify(sizeText)}`)
    objects.push({ key: urlEncoded ? decodeUrlKey(rawKey) : rawKey, size, etag: childText(entry, 'ETag')?.trim() || undefined })
  }
  const truncatedText = childText(root, 'IsTruncated')?.trim().toLowerCase()
  if (truncatedText !== undefined && truncatedText !== 'true' && truncatedText !== 'false') {
    throw new Error(`<IsTruncated> is ${JSON.stringify(truncatedText)}`)
  }
  return { objects, truncated: truncatedText === 'true', nextToken: childText(root, 'NextContinuationToken')?.trim() || undefined }
}

/**
 * Keys under encoding-type=url are form-encoded ('+' for a space, as botocore reads them).
 * @param {string} raw
 */
function decodeUrlKey(raw) {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '))
  } catch {
    throw new Error('a listed key is not valid URL encoding')
  }
}

/**
 * The Code and Message of an S3 Error document, when `text` is one; undefined otherwise (an HTML page
 * from a proxy, an empty body).
 * @param {string} text
 * @returns {{ code?: string, message?: string } | undefined}
 */
export function parseS3Error(text) {
  let root
  try {
    root = parseXml(text)
  } catch {
    return undefined
  }
  if (root.name !== 'Error') return undefined
  return { code: childText(root, 'Code')?.trim() || undefined, message: childText(root, 'Message')?.trim() || undefined }
}
