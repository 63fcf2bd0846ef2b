/** A `bigint` column read as a number (pg answers bigint as a string): every amount here is far below 2^53. */
export const bigintAsNumber = {
  to: (v: number | null | undefined) => v,
  from: (v: string | null) => (v === null ? null : Number(v)),
};
