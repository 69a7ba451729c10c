// The types of avsc's types-only browser entry, which js/table/avro.js loads: it ships none of its own, and is the
// package's schema types (the package's declarations, 'avsc'), as a CommonJS module's default and named exports.
declare module 'avsc/etc/browser/avsc-types.js' {
  import * as avsc from 'avsc'
  export * from 'avsc'
  const types: typeof avsc
  export default types
}
