// Hive folders whose values DuckDB reads differently from how their text looks (a key given twice, `NULL`,
// `0x10`, `1_000`, `2026 01 07`) and probed values DuckDB casts to the partition's type: a probe of the
// partition column or a `where` never rules out a file DuckDB finds rows in (read_parquet(…,
// hive_partitioning = true) is the truth), and local globs select the files DuckDB's globs select.
import assert from 'node:assert/strict'
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { openDataset } from '../../js/index.js'
import { duckdb, quote } from '../../testkit/hive-dataset.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('dataset-hive-truth')
const one = path.join(dir, 'one.parquet')
let roots = 0

/**
 * A dataset of one file per folder path (each `folder/f.parquet`, a row with id 7 and no column named like a key).
 * @param {string[]} folders
 */
async function layout(folders) {
  const root = path.join(dir, `root${roots++}`)
  for (const folder of folders) {
    await mkdir(path.join(root, folder), { recursive: true })
    await copyFile(one, path.join(root, folder, 'f.parquet'))
  }
  return root
}

/**
 * DuckDB's rows over `pattern` where `predicate` holds; undefined when DuckDB refuses the comparison.
 * @param {string} pattern @param {string} predicate
 */
async function duckdbRows(pattern, predicate) {
  const db = await duckdb()
  try {
    const [row] = await db.rows(`SELECT count(*)::INTEGER AS n FROM read_parquet(${quote(pattern)}, hive_partitioning = true)
      WHERE ${predicate}`)
    return Number(row.n)
  } catch {
    return undefined
  } finally {
    db.close()
  }
}

/**
 * Probes `key` for `value` and asks for id 7 with `where: { key: value }`: where DuckDB finds a row, neither rules it out.
 * @param {string[]} folders @param {string} key @param {unknown} value @param {string} predicate DuckDB's `key = value`
 */
async function assertNotRuledOut(folders, key, value, predicate) {
  const root = await layout(folders)
  const rows = await duckdbRows(path.join(root, '**/*.parquet'), predicate)
  assert.ok(rows !== undefined && rows > 0, `DuckDB finds ${predicate} in ${folders.join(', ')} (${rows} rows)`)
  const dataset = await openDataset(root)
  const shown = value instanceof Date ? value.toISOString() : String(value)
  const probed = await dataset.probe(key, [value])
  const answer = probed.files[0].values[0]
  assert.notEqual(answer.verdict, 'absent', `${folders[0]}: probe of ${key} for ${shown}: ${answer.detail}`)
  const where = await dataset.probe('id', [7], { where: { [key]: value } })
  assert.equal(where.files[0].skipped, undefined, `${folders[0]}: where ${key} = ${shown} skipped the file`)
  assert.equal(where.files[0].values[0].verdict, 'maybe')
}

before(async () => {
  const db = await duckdb()
  try {
    await db.run(`COPY (SELECT 7 AS id) TO ${quote(one)} (FORMAT parquet)`)
  } finally {
    db.close()
  }
})

describe('Hive folders as DuckDB reads them', () => {
  test('a key given twice in a path has its first value', async () => {
    await assertNotRuledOut(['a=1/a=2'], 'a', 1, 'a = 1')
  })

  test('a folder `key=NULL` (any case) is null, as DuckDB reads it', async () => {
    await assertNotRuledOut(['x=NULL'], 'x', null, 'x IS NULL')
    await assertNotRuledOut(['x=null'], 'x', null, 'x IS NULL')
    // Typed as DuckDB types it: null, not a text that makes the key VARCHAR.
    const root = await layout(['n=NULL', 'n=5'])
    const dataset = await openDataset(root)
    const db = await duckdb()
    try {
      const types = await db.rows(`DESCRIBE SELECT n FROM read_parquet(${quote(path.join(root, '**/*.parquet'))},
        hive_partitioning = true)`)
      assert.deepEqual(dataset.partitionTypes, { n: types[0].column_type })
    } finally {
      db.close()
    }
    assert.deepEqual(dataset.files.map((f) => f.partitions.n), [5, null])
  })

  test('a value\'s %XX escapes are decoded beside a stray \'%\', as DuckDB decodes them', async () => {
    await assertNotRuledOut(['k=a%2Fb%zz'], 'k', 'a/b%zz', "k = 'a/b%zz'")
    await assertNotRuledOut(['k=%C3%A9%ZZ'], 'k', 'é%ZZ', "k = 'é%ZZ'")
    await assertNotRuledOut(['k=50%25 off%2F%'], 'k', '50% off/%', "k = '50% off/%'")
    await assertNotRuledOut(['k=100%'], 'k', '100%', "k = '100%'")
  })

  test('a number written as DuckDB casts text to one: 0x10, 0b101, 1_000, 1_0.5', async () => {
    await assertNotRuledOut(['x=0x10'], 'x', 16, 'x = 16')
    await assertNotRuledOut(['x=0X1f'], 'x', 31n, 'x = 31')
    await assertNotRuledOut(['x=0b101'], 'x', 5, 'x = 5')
    await assertNotRuledOut(['x=1_000'], 'x', 1000, 'x = 1000')
    await assertNotRuledOut(['x=1_0.5'], 'x', 10.5, 'x = 10.5')
    await assertNotRuledOut(['x=16'], 'x', '0x10', "x = '0x10'")
  })

  test('a date of the years 0-99 is that year, not 1900-1999 (as Date.UTC reads them)', async () => {
    const day = new Date(Date.UTC(2000, 2, 1))
    day.setUTCFullYear(50)
    await assertNotRuledOut(['d=0050-03-01'], 'd', day, "d = DATE '0050-03-01'")
    await assertNotRuledOut(['d=0050-03-01'], 'd', '0050-03-01', "d = DATE '0050-03-01'")
    await assertNotRuledOut(['t=0050-03-01 12:00:00'], 't', new Date(day.getTime() + 12 * 3600_000), "t = TIMESTAMP '0050-03-01 12:00:00'")
  })

  test('a Date against a timestamp folder on a local clock whose offset has seconds (Monrovia, -00:44:30 until 1972)', async () => {
    const zone = process.env.TZ
    process.env.TZ = 'Africa/Monrovia'
    try {
      // getTimezoneOffset() says 44 minutes: its local fields read through it were 00:00:30.
      const midnight = new Date(1965, 8, 17)
      assert.equal(midnight.toISOString(), '1965-09-17T00:44:30.000Z')
      await assertNotRuledOut(['t=1965-09-17 00:00:00'], 't', midnight, `t = timezone('Africa/Monrovia', TIMESTAMPTZ '${midnight.toISOString()}')`)
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
    }
  })

  test('a date written as DuckDB casts text to one, and a date and time probed against a date', async () => {
    const day = new Date(Date.UTC(2026, 0, 7))
    await assertNotRuledOut(['d=2026 01 07'], 'd', day, "d = DATE '2026-01-07'")
    await assertNotRuledOut(['d=2026 01 07'], 'd', '2026-01-07', "d = '2026-01-07'")
    await assertNotRuledOut(['d=2026-01-07'], 'd', '2026/01/07', "d = '2026/01/07'")
    await assertNotRuledOut(['d=2026-01-07'], 'd', '2026 1 7', "d = '2026 1 7'")
    await assertNotRuledOut(['d=2026-01-07'], 'd', '2026-01-07T10:00:00', "d = '2026-01-07T10:00:00'")
    await assertNotRuledOut(['t=2026-01-07 10:00:00'], 't', '2026/01/07 10:00:00', "t = '2026/01/07 10:00:00'")
  })
})

describe('Hive folders typed as DuckDB types them', () => {
  test('an integer with a sign, spaces, 0x or 0b is BIGINT, as DuckDB infers it, and text is then refused, not absent', async () => {
    const db = await duckdb()
    try {
      for (const folder of ['k=-03', 'k= -3', 'k=5 ', 'k=0x10', 'k=0b101', 'k=-00', 'k=01', 'k=00', 'k=+3', 'k=-0x10']) {
        const root = await layout([folder])
        const from = `FROM read_parquet(${quote(path.join(root, '**/*.parquet'))}, hive_partitioning = true)`
        const [{ column_type: type }] = await db.rows(`DESCRIBE SELECT k ${from}`)
        const [{ k }] = await db.rows(`SELECT k ${from}`)
        const dataset = await openDataset(root)
        assert.equal(dataset.partitionTypes.k, type, folder)
        assert.equal(String(dataset.files[0].partitions.k), String(k), folder)
        if (type !== 'BIGINT') continue
        // DuckDB refuses to compare text that is no number with it; the probe fails the file rather than answer absent.
        await assert.rejects(db.rows(`SELECT count(*) ${from} WHERE k = 'abc'`))
        const probed = await dataset.probe('k', ['abc'])
        assert.equal(probed.files[0].error?.code, 'BAD_VALUE', folder)
      }
    } finally {
      db.close()
    }
  })
})

describe('Hive folders DuckDB reads as dates from a word', () => {
  test('epoch is 1970-01-01, inf and infinity (any case, either sign) one another, as DuckDB casts them', async () => {
    await assertNotRuledOut(['d=epoch'], 'd', '1970-01-01', "d = '1970-01-01'")
    await assertNotRuledOut(['d=EPOCH'], 'd', new Date(0), "d = TIMESTAMP '1970-01-01 00:00:00'")
    await assertNotRuledOut(['d=1970-01-01'], 'd', 'epoch', "d = 'epoch'")
    await assertNotRuledOut(['t=1970-01-01 00:00:00'], 't', 'Epoch', "t = 'Epoch'")
    await assertNotRuledOut(['d=Infinity'], 'd', 'inf', "d = 'inf'")
    await assertNotRuledOut(['d=-inf'], 'd', '-infinity', "d = '-infinity'")
  })
})

describe('a key with a dot is also the name of a nested field', () => {
  test('a folder `a.b=5` rules out no value of the file\'s field a.b (DuckDB: a.b = 3 finds the row, "a.b" is the folder)', async () => {
    const root = path.join(dir, `root${roots++}`)
    await mkdir(path.join(root, 'a.b=5'), { recursive: true })
    const db = await duckdb()
    try {
      await db.run(`COPY (SELECT {'b': 3} AS a, 7 AS id) TO ${quote(path.join(root, 'a.b=5', 'f.parquet'))} (FORMAT parquet)`)
      const [row] = await db.rows(`SELECT count(*)::INTEGER AS n FROM read_parquet(${quote(path.join(root, '**/*.parquet'))},
        hive_partitioning = true) WHERE a.b = 3 AND "a.b" = 5`)
      assert.equal(row.n, 1)
    } finally {
      db.close()
    }
    const dataset = await openDataset(root)
    for (const column of [['a', 'b'], 'a.b']) {
      const probed = await dataset.probe(column, [3, 5])
      assert.deepEqual(probed.files[0].values.map((v) => v.verdict), ['maybe', 'maybe'], JSON.stringify(column))
    }
  })
})

describe('keys that differ only in case, which DuckDB reads as one column', () => {
  test('`Day=1/day=2` is day 1 to DuckDB (the first of the two); `K=1` over a file column k = 2 is k 1 and 2', async () => {
    await assertNotRuledOut(['Day=1/day=2'], 'day', 1, 'day = 1')
    const root = path.join(dir, `root${roots++}`)
    await mkdir(path.join(root, 'K=1'), { recursive: true })
    const db = await duckdb()
    try {
      await db.run(`COPY (SELECT 2 AS k, 7 AS id) TO ${quote(path.join(root, 'K=1', 'f.parquet'))} (FORMAT parquet)`)
      // DuckDB shows the row's k as 1 (the folder's), yet its filter k = 2 finds the row (the file's column): both readings.
      const from = `FROM read_parquet(${quote(path.join(root, '**/*.parquet'))}, hive_partitioning = true)`
      assert.deepEqual((await db.rows(`SELECT k::INTEGER AS k ${from}`)).map((r) => r.k), [1])
      const [row] = await db.rows(`SELECT count(*)::INTEGER AS n ${from} WHERE k = 2`)
      assert.equal(row.n, 1)
    } finally {
      db.close()
    }
    const probed = await openDataset(root).then((d) => d.probe('k', [1, 2]))
    assert.deepEqual(probed.files[0].values.map((v) => v.verdict), ['maybe', 'maybe'])
  })
})

describe('probed values no partition folder can be compared with', () => {
  test('a function or a symbol (a file\'s own probe refuses them: BAD_VALUE) rules out no file, nor does `where` skip one', async () => {
    const root = await layout(['k=1', 'k=abc'])
    const dataset = await openDataset(root)
    const inFile = await dataset.probe('id', [Symbol('id'), () => 7])
    for (const file of inFile.files) assert.equal(file.error?.code, 'BAD_VALUE', file.path)
    for (const value of [Symbol('k'), () => 1, { toString: () => 'zzz' }]) {
      const probed = await dataset.probe('k', [value])
      assert.deepEqual(probed.files.map((f) => f.values[0].verdict), ['maybe', 'maybe'], String(typeof value))
      const where = await dataset.probe('id', [7], { where: { k: value } })
      assert.deepEqual(where.files.map((f) => f.skipped), [undefined, undefined], String(typeof value))
    }
  })
})

describe('probed values a partition key\'s type cannot be compared with', () => {
  test('a Date or a date\'s text for `dt=20260107` (BIGINT), text for `d=2026-01-07` (DATE): BAD_VALUE per file, not absent', async () => {
    const cases = [[['dt=20260107', 'dt=20260108'], 'dt', 'BIGINT', [new Date(Date.UTC(2026, 0, 7)), '2026-01-07'],
      ["dt = DATE '2026-01-07'", "dt = '2026-01-07'"]], [['d=2026-01-07'], 'd', 'DATE', ['abc', ''], ["d = 'abc'", "d = ''"]]]
    for (const [folders, key, type, values, predicates] of cases) {
      const root = await layout(folders)
      // DuckDB refuses the comparison (a conversion error), as a file's own column of the type refuses the value.
      for (const predicate of predicates) assert.equal(await duckdbRows(path.join(root, '**/*.parquet'), predicate), undefined)
      const dataset = await openDataset(root)
      assert.equal(dataset.partitionTypes[key], type)
      for (const value of values) {
        const probed = await dataset.probe(key, [value, 1])
        for (const file of probed.files) {
          assert.equal(file.error?.code, 'BAD_VALUE', `${file.path}: ${String(value)}`)
          assert.deepEqual(file.values.map((v) => v.verdict), ['unknown', 'unknown'])
        }
        const where = await dataset.probe('id', [7], { where: { [key]: value } })
        assert.ok(where.files.every((f) => !f.skipped), `where ${key} = ${String(value)}`)
      }
    }
    // A Date and a VARCHAR key: DuckDB casts each value to a timestamp and refuses 'abc'; '2026-01-07' is compared.
    const mixed = await layout(['k=2026-01-07', 'k=abc'])
    assert.equal(await duckdbRows(path.join(mixed, '**/*.parquet'), "k = TIMESTAMP '2026-01-07 00:00:00'"), undefined)
    const day = new Date(Date.UTC(2026, 0, 7))
    const probed = await openDataset(mixed).then((d) => d.probe('k', [day]))
    assert.deepEqual(probed.files.map((f) => [f.values[0].verdict, f.error?.code]), [['maybe', undefined], ['unknown', 'BAD_VALUE']])
    const where = await openDataset(mixed).then((d) => d.probe('id', [7], { where: { k: day } }))
    assert.deepEqual(where.files.map((f) => f.skipped), [undefined, undefined])
    // The folder's own text is compared, whatever the key's type: `NULL` (null to DuckDB, text to Spark) beside `n=5`.
    const nulls = await openDataset(await layout(['n=5', 'n=NULL'])).then((d) => d.probe('n', ['NULL']))
    assert.deepEqual(nulls.files.map((f) => [f.values[0].verdict, f.error?.code]), [['unknown', 'BAD_VALUE'], ['maybe', undefined]])
    // A key of nulls only is VARCHAR, as DuckDB types it (not a DATE that refuses text).
    const root = await layout(['k=__HIVE_DEFAULT_PARTITION__'])
    const db = await duckdb()
    try {
      const [type] = await db.rows(`DESCRIBE SELECT k FROM read_parquet(${quote(path.join(root, '**/*.parquet'))},
        hive_partitioning = true)`)
      assert.deepEqual((await openDataset(root)).partitionTypes, { k: type.column_type })
    } finally {
      db.close()
    }
  })
})

describe('an integer probed of a timestamp folder', () => {
  test('a count of ms, µs or ns is compared as a file\'s own TIMESTAMP column of that unit takes it, not ruled out', async () => {
    const micros = BigInt(Date.UTC(2026, 0, 7, 10)) * 1000n
    const file = path.join(dir, 'ts.parquet')
    const db = await duckdb()
    try {
      await db.run(`COPY (SELECT TIMESTAMP '2026-01-07 10:00:00' AS ts) TO ${quote(file)} (FORMAT parquet)`)
    } finally {
      db.close()
    }
    // The file's own TIMESTAMP (µs) column holds the integer count of its unit.
    const own = await openDataset([file]).then((d) => d.probe('ts', [micros]))
    assert.equal(own.files[0].values[0].verdict, 'maybe')
    const root = await layout(['ts=2026-01-07 10%3A00%3A00'])
    const dataset = await openDataset(root)
    assert.equal(dataset.partitionTypes.ts, 'TIMESTAMP')
    const probed = await dataset.probe('ts', [micros / 1000n, Number(micros / 1000n), micros, micros * 1000n, micros + 1n])
    assert.deepEqual(probed.files[0].values.map((v) => v.verdict), ['maybe', 'maybe', 'maybe', 'maybe', 'absent'])
  })
})

describe('where', () => {
  test('an undefined value (an unset variable) is INVALID_ARGUMENT, not a where that keeps only the null partition', async () => {
    const dataset = await openDataset(await layout(['k=1', 'k=__HIVE_DEFAULT_PARTITION__']))
    for (const where of [{ k: undefined }, { k: [1, undefined] }]) {
      await assert.rejects(dataset.probe('id', [7], { where }),
        (e) => e.code === 'INVALID_ARGUMENT' && /where\.k is undefined/.test(e.message))
    }
    const nulls = await dataset.probe('id', [7], { where: { k: null } })
    assert.deepEqual(nulls.files.map((f) => f.skipped), ['where', undefined])
  })
})

describe('local globs as DuckDB reads them', () => {
  test('a character set ([01], [!0], [a-c]) selects the files DuckDB\'s glob selects; a folder named with brackets is itself', async () => {
    const root = await layout(['part-0', 'part-1', 'part-2', 'run[1]'])
    const db = await duckdb()
    try {
      for (const glob of ['part-[01]/*.parquet', 'part-[!0]/*.parquet', 'part-[a-c0-1]/*.parquet']) {
        const rows = await db.rows(`SELECT DISTINCT filename FROM read_parquet(${quote(path.join(root, glob))}, filename = true)`)
        const truth = rows.map((r) => path.relative(root, String(r.filename))).sort()
        assert.ok(truth.length > 0)
        const dataset = await openDataset(path.join(root, glob))
        assert.deepEqual(dataset.files.map((f) => f.path), truth, glob)
      }
    } finally {
      db.close()
    }
    const literal = await openDataset(path.join(root, 'run[1]'))
    assert.deepEqual(literal.files.map((f) => f.path), ['f.parquet'])
  })

  test('a glob skips no name it matches (.x, _x), as DuckDB\'s; a folder skips bookkeeping but not a `_key=value` partition', async () => {
    const root = await layout(['k=1', 'k=2/.hive-staging_1', 'k=3/_delta_log'])
    await copyFile(one, path.join(root, 'k=1', '_b.parquet'))
    await copyFile(one, path.join(root, 'k=1', '.c.parquet'))
    const db = await duckdb()
    try {
      for (const glob of ['k=1/*', '*/_*.parquet', '**/.*.parquet', '**/*.parquet']) {
        const rows = await db.rows(`SELECT DISTINCT filename FROM read_parquet(${quote(path.join(root, glob))}, filename = true)`)
        const truth = rows.map((r) => path.relative(path.join(root, glob.startsWith('k=1') ? 'k=1' : ''), String(r.filename))).sort()
        assert.ok(truth.length > 0)
        const dataset = await openDataset(path.join(root, glob))
        assert.deepEqual(dataset.files.map((f) => f.path), truth, glob)
      }
      // A folder: its data files, not the staging folder, the log, or the hidden and underscore files.
      assert.deepEqual((await openDataset(root)).files.map((f) => f.path), ['k=1/f.parquet'])
      // What DuckDB writes partitioned by a column named `_shard`: every file, as DuckDB's glob reads them.
      const written = path.join(dir, 'shards')
      await db.run(`COPY (SELECT i AS id, i % 2 AS _shard, i % 3 AS day FROM range(6) t(i)) TO ${quote(written)}
        (FORMAT parquet, PARTITION_BY (_shard, day))`)
      await writeFile(path.join(written, '_SUCCESS'), '')
      const rows = await db.rows(`SELECT DISTINCT filename FROM read_parquet(${quote(path.join(written, '**/*.parquet'))},
        filename = true)`)
      const truth = rows.map((r) => path.relative(written, String(r.filename))).sort()
      assert.equal(truth.length, 6)
      const dataset = await openDataset(written)
      assert.deepEqual(dataset.files.map((f) => f.path), truth)
      const where = await dataset.probe('id', [3], { where: { _shard: 1 } })
      assert.equal(where.files.filter((f) => !f.skipped).length, 3)
    } finally {
      db.close()
    }
  })
})
