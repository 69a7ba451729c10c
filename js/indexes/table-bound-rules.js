// Known bugs of table metadata writers (Iceberg manifests, Delta statistics): per-file bounds that are wrong for
// some column types, in one table with a test per row (tests/js/table-traps.test.js). Apart from the Parquet
// writers' rules (js/indexes/writer-rules.js) because only tables read them: a single file's probe never loads them.

/**
 * Writers of table metadata (Iceberg manifests, Delta statistics) whose per-file bounds are known to be
 * wrong for some column types, keyed by the table's writer (js/table/iceberg.js icebergWriter,
 * js/table/delta.js). `effect` says how the bounds are read: 'upper-bound-is-prefix' (any value starting
 * with the upper bound may be in the file), 'ignore-upper-bound', 'ignore-bounds', 'bound-may-be-float' (a double bound
 * is also the float32 it rounds to).
 * @type {Array<{ id: string, link: string, writer: (writer: string) => boolean, affects: (type: { kind: string }) => boolean,
 *   effect: 'upper-bound-is-prefix' | 'ignore-upper-bound' | 'ignore-bounds' | 'bound-may-be-float', message: string }>}
 */
export const TABLE_BOUND_RULES = [
  {
    id: 'uniform-truncated-max',
    link: 'https://github.com/delta-io/delta/issues/7444',
    writer: (writer) => writer === 'delta-uniform',
    affects: (type) => type.kind === 'string' || type.kind === 'binary',
    effect: 'upper-bound-is-prefix',
    message: 'Delta UniForm copies Delta\'s truncated string max into Iceberg upper_bounds without incrementing it: ' +
      'a value starting with it may be larger',
  },
  {
    id: 'uniform-widened-float-bounds',
    // getMetricsForIcebergDataFile parses add.stats with snapshot.statsSchema; IcebergConverter converts allFiles on CREATE/REPLACE_TABLE.
    link: 'https://github.com/delta-io/delta/blob/master/iceberg/src/main/scala/org/apache/spark/sql/delta/icebergShaded/' +
      'IcebergTransactionUtils.scala',
    writer: (writer) => writer === 'delta-uniform',
    affects: (type) => type.kind === 'double',
    effect: 'bound-may-be-float',
    message: 'Delta UniForm converts a file\'s Delta stats with the schema of the snapshot it converts (a first or full conversion ' +
      'adds every file so): a file written before a float → double widening has the float\'s shortest decimal there ("3.4" for ' +
      '3.4000000953674316), written as that double, below or above the value read: a bound also stands for the float it denotes',
  },
  {
    id: 'iceberg-variant-upper-bound',
    link: 'https://github.com/apache/iceberg/issues/16880',
    writer: () => true,
    affects: (type) => type.kind === 'other' && /variant/i.test(String(/** @type {any} */ (type).name ?? '')),
    effect: 'ignore-bounds',
    message: 'a variant column\'s upper bound can be truncated downwards, below values the file holds: its bounds are not used',
  },
]

/**
 * The table-bound rules for a table writer and a column type.
 * @param {string} writer
 * @param {{ kind: string }} type
 */
export function tableBoundRules(writer, type) {
  return TABLE_BOUND_RULES.filter((rule) => rule.writer(writer) && rule.affects(type))
}
