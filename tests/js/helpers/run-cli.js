// Runs the parquet-bloom CLI (js/cli.js), or any Node script, as a child process for tests: collects
// stdout and stderr, resolves with the exit code and never rejects on a non-zero exit.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import path from 'node:path'

import { projectRoot } from './fixtures.js'

export const CLI_PATH = path.join(projectRoot, 'js/cli.js')

/**
 * Runs `node <nodeArgs…>`.
 * @param {string[]} nodeArgs
 * @param {{ stdin?: string, env?: Record<string, string>, cwd?: string, timeout?: number }} [options]
 *   stdin: written to the child's stdin, which is then closed (without it the child has no stdin);
 *   env: added to this process's environment; timeout: milliseconds before the child is killed (SIGKILL).
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string }>}
 */
export function runNode(nodeArgs, { stdin, env, cwd, timeout } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs, {
      cwd,
      env: env ? { ...process.env, ...env } : process.env,
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    })
    const out = []
    const err = []
    child.stdout.on('data', (d) => out.push(d))
    child.stderr.on('data', (d) => err.push(d))
    const timer = timeout === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeout)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') })
    })
    if (stdin !== undefined) child.stdin.end(stdin)
  })
}

/**
 * Runs `parquet-bloom <args…>`.
 * @param {string[]} args
 * @param {Parameters<typeof runNode>[1]} [options]
 */
export function runCli(args, options) {
  return runNode([CLI_PATH, ...args], options)
}

/**
 * Runs `parquet-bloom <args…> --json` and parses stdout; a test failure names the exit code and stderr
 * when stdout is not JSON.
 * @param {string[]} args
 * @param {Parameters<typeof runNode>[1]} [options]
 */
export async function runCliJson(args, options) {
  const r = await runCli([...args, '--json'], options)
  let doc
  try {
    doc = JSON.parse(r.stdout)
  } catch (error) {
    assert.fail(`stdout is not JSON (${error.message}); exit ${r.code}; stderr: ${r.stderr}\n${r.stdout.slice(0, 500)}`)
  }
  return { ...r, doc }
}
