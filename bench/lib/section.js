// Lets each bench/sections/*.js run on its own in a fresh Node process: `node section.js --out f.json
// [--quick]` runs it and writes its result as JSON, which bench/run.js collects; `--cold <case>` runs one
// of the section's cold cases instead, once (bench/lib/cold.js starts those).
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export function parseArgs(argv = process.argv.slice(2)) {
  const args = { quick: false, out: undefined, cold: undefined, rest: [] }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--quick') args.quick = true
    else if (argv[i] === '--out') args.out = argv[++i]
    else if (argv[i] === '--cold') args.cold = argv[++i]
    else args.rest.push(argv[i])
  }
  return args
}

/**
 * Runs `run(args)` when `moduleUrl` is the script Node was started with, or, with `--cold <case>`,
 * `coldCases[case](args)`: a first call timed in this fresh process (bench/lib/cold.js timeFirstCall).
 * @param {string} moduleUrl
 * @param {(args: ReturnType<typeof parseArgs>) => Promise<unknown>} run
 * @param {Record<string, (args: ReturnType<typeof parseArgs>) => Promise<unknown>>} [coldCases]
 */
export function runIfMain(moduleUrl, run, coldCases = {}) {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== process.argv[1]) return
  const args = parseArgs()
  const job = args.cold === undefined ? run(args)
    : Object.hasOwn(coldCases, args.cold) ? coldCases[args.cold](args) : Promise.reject(new Error(`no cold case ${args.cold}`))
  job.then((result) => {
    const text = JSON.stringify(result, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)
    if (args.out) writeFileSync(args.out, text)
    else console.log(text)
    process.exit(0)
  }, (error) => {
    console.error(error)
    process.exit(1)
  })
}
