// Lets each bench/sections/*.js run on its own in a fresh Node process: `node section.js --out f.json
// [--quick]` runs it and writes its result as JSON, which bench/run.js collects.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export function parseArgs(argv = process.argv.slice(2)) {
  const args = { quick: false, out: undefined, rest: [] }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--quick') args.quick = true
    else if (argv[i] === '--out') args.out = argv[++i]
    else args.rest.push(argv[i])
  }
  return args
}

/** Runs `run(args)` when `moduleUrl` is the script Node was started with. */
export function runIfMain(moduleUrl, run) {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== process.argv[1]) return
  const args = parseArgs()
  run(args).then((result) => {
    const text = JSON.stringify(result, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)
    if (args.out) writeFileSync(args.out, text)
    else console.log(text)
    process.exit(0)
  }, (error) => {
    console.error(error)
    process.exit(1)
  })
}
