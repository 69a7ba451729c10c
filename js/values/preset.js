// Verdicts decided from the value alone, before any filter is read: null, NaN, or a value no file of
// the column's type could hold. `reason` is a stable code for programs, `detail` the sentence for people.

/** A verdict decided without the filter: reason 'null', 'nan', 'not-representable' or 'internal'. */
export class Preset {
  constructor(verdict, reason, detail) {
    this.verdict = verdict
    this.reason = reason
    this.detail = detail
  }
}

/** 'absent' for a value no file of the column's type can hold; `detail` says why. */
export const absent = (detail) => new Preset('absent', 'not-representable', detail)

export const NULL = new Preset('unknown', 'null', 'bloom filters do not record nulls')
export const NAN = new Preset('unknown', 'nan', 'NaN has many bit patterns')
// A converter that produced nothing must not turn into a silent 'absent'.
export const NO_CANDIDATE = new Preset('unknown', 'internal', 'no candidate was produced for this value')
