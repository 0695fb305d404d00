/** The current time as Unix seconds, the unit of block timestamps. */
export function nowSeconds(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}
