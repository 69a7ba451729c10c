// The browsers the browser tests drive, behind one page interface (the subset of playwright's Page the
// scenarios use): Debian's Chromium through playwright-core (CDP), Debian's Firefox ESR through
// puppeteer-core over WebDriver BiDi, adapted to the same calls so each scenario is written once.
import { existsSync } from 'node:fs'

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-dev-shm-usage']

export const BROWSERS = {
  chromium: {
    executable: process.env.PB_CHROMIUM ?? '/usr/bin/chromium',
    debianPackage: 'chromium',
    driver: 'playwright-core',
    launch: launchChromium,
  },
  firefox: {
    executable: process.env.PB_FIREFOX ?? '/usr/bin/firefox-esr',
    debianPackage: 'firefox-esr',
    driver: 'puppeteer-core',
    launch: launchFirefox,
  },
}

/** Why `name` cannot run here, or undefined. */
export function missingBrowser(name) {
  const b = BROWSERS[name]
  if (!b) return `unknown browser ${name} (known: ${Object.keys(BROWSERS).join(', ')})`
  if (!existsSync(b.executable)) return `${b.executable} is missing: \`bash scripts/setup.sh\` installs Debian's ${b.debianPackage} package (unless PB_SKIP_BROWSER=1).`
  return undefined
}

/**
 * Launches a browser; resolves { version, newPage({ viewport, timeout }) → { page, onRequest, close },
 * close() }. `page` answers the playwright calls the scenarios make; onRequest(fn) sees every request
 * of the page and its workers.
 */
export async function launchBrowser(name, { timeout }) {
  let driver
  try {
    driver = await import(BROWSERS[name].driver)
  } catch (error) {
    throw new Error(`${BROWSERS[name].driver} did not load (${error.message}); install the npm dependencies with \`bash scripts/setup.sh\``)
  }
  return BROWSERS[name].launch(driver, BROWSERS[name].executable, timeout)
}

async function launchChromium({ chromium }, executablePath, timeout) {
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, timeout })
  return {
    version: `chromium ${browser.version()}`,
    async newPage({ viewport, timeout: stepTimeout }) {
      // The HTTP/2 scenarios' server has a self-signed certificate made at test time.
      const context = await browser.newContext({ viewport, ignoreHTTPSErrors: true })
      context.setDefaultTimeout(stepTimeout)
      const page = await context.newPage()
      return { page, onRequest: (fn) => context.on('request', (r) => fn(r.url())), close: () => context.close() }
    },
    close: () => browser.close(),
  }
}

async function launchFirefox({ default: puppeteer }, executablePath, timeout) {
  const browser = await puppeteer.launch({ browser: 'firefox', protocol: 'webDriverBiDi', executablePath, headless: true, timeout, acceptInsecureCerts: true })
  return {
    version: await browser.version(),
    async newPage({ viewport, timeout: stepTimeout }) {
      const context = await browser.createBrowserContext()
      const page = await context.newPage()
      page.setDefaultTimeout(stepTimeout)
      await page.setViewport(viewport)
      return { page: new PuppeteerPage(page), onRequest: (fn) => page.on('request', (r) => fn(r.url())), close: () => context.close() }
    },
    close: () => browser.close(),
  }
}

/** A puppeteer page answering with playwright's semantics: waits for visible elements, fill = set + input event. */
class PuppeteerPage {
  constructor(page) {
    this.p = page
  }

  on(event, fn) {
    this.p.on(event, fn) // 'pageerror' and 'console' carry the same message/type()/text() as playwright's
  }

  goto(url) {
    return this.p.goto(url)
  }

  waitForSelector(selector) {
    return this.p.waitForSelector(selector, { visible: true })
  }

  async click(selector) {
    await (await this.waitForSelector(selector)).click()
  }

  async fill(selector, value) {
    await this.waitForSelector(selector)
    await this.p.$eval(selector, (el, text) => {
      el.focus()
      el.value = text
      el.dispatchEvent(new Event('input', { bubbles: true }))
      el.dispatchEvent(new Event('change', { bubbles: true }))
    }, value)
  }

  async selectOption(selector, value) {
    await this.waitForSelector(selector)
    await this.p.select(selector, value)
  }

  async setInputFiles(selector, file) {
    const input = await this.p.waitForSelector(selector) // file inputs are usually hidden behind a label
    await input.uploadFile(file)
  }

  async textContent(selector) {
    await this.p.waitForSelector(selector)
    return this.p.$eval(selector, (el) => el.textContent)
  }

  async inputValue(selector) {
    await this.p.waitForSelector(selector)
    return this.p.$eval(selector, (el) => el.value)
  }

  async getAttribute(selector, name) {
    await this.p.waitForSelector(selector)
    return this.p.$eval(selector, (el, n) => el.getAttribute(n), name)
  }

  check(selector) {
    return this.#setChecked(selector, true)
  }

  uncheck(selector) {
    return this.#setChecked(selector, false)
  }

  async #setChecked(selector, checked) {
    const box = await this.waitForSelector(selector)
    if ((await box.evaluate((el) => el.checked)) !== checked) await box.click()
    if ((await box.evaluate((el) => el.checked)) !== checked) throw new Error(`${selector}: clicking did not make it ${checked ? 'checked' : 'unchecked'}`)
  }

  /** playwright: hidden = not in the page, or no box / visibility hidden. */
  isHidden(selector) {
    return this.p.evaluate((sel) => {
      const el = document.querySelector(sel)
      return !el || getComputedStyle(el).visibility === 'hidden' || el.getClientRects().length === 0
    }, selector)
  }

  evaluate(fn, arg) {
    return this.p.evaluate(fn, arg)
  }

  $eval(selector, fn, arg) {
    return this.p.$eval(selector, fn, arg)
  }

  $$eval(selector, fn, arg) {
    return this.p.$$eval(selector, fn, arg)
  }

  workers() {
    return this.p.workers()
  }

  screenshot(options) {
    return this.p.screenshot(options)
  }
}
