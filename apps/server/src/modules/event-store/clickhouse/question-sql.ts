import { FEE_LIMITS } from '../domain.ts';
/**
 * SQL pieces the acquisition and incident questions share, beside sql.ts. Times are epoch
 * milliseconds in parameters and DateTime64(3, 'UTC') in the table, so every conversion names UTC: a
 * server's own time zone never moves a day or a range edge.
 */

/** A parameter of epoch ms as a UTC time. */
export const timeParam = (name: string) => `fromUnixTimestamp64Milli({${name}:Int64}, 'UTC')`;
/** The UTC day of a time. */
export const utcDay = (expression: string) => `toDate(${expression}, 'UTC')`;

/** A receipt whose fee counts (docs/wallets.md, FEE_LIMITS): both parts present and within the limits. */
export const RECEIPT_HAS_FEE = `gas_used IS NOT NULL AND effective_gas_price IS NOT NULL AND toInt256(assumeNotNull(gas_used)) < toInt256('${FEE_LIMITS.gasUsed}') AND toInt256(assumeNotNull(effective_gas_price)) < toInt256('${FEE_LIMITS.effectiveGasPrice}')`;
/**
 * A receipt's hash as a 64-bit key (no hash: the empty text's), as DuckDB's `hash` gives it a number: each
 * receipt hash of a transaction counts once, at its latest report (docs/wallets.md).
 */
export const RECEIPT_KEY = "cityHash64(lower(coalesce(tx_hash, '')))";
/** A receipt's fee in wei (gas used × effective gas price), for a receipt RECEIPT_HAS_FEE admits. */
export const RECEIPT_FEE = 'toInt256(assumeNotNull(gas_used)) * toInt256(assumeNotNull(effective_gas_price))';

/**
 * The fee of a set of receipts (tuples whose first three elements are the receipt key, time and event id,
 * the fourth its fee): each receipt key's latest report (by time, then event id: docs/wallets.md) summed, a
 * receipt counting unless another of its key is later; `value`, a lambda body over the tuple `r`, sums
 * another of its values instead. No sort: a set holds one receipt, rarely a few.
 */
export const feeOfReceipts = (receipts: string, value = 'r.4') =>
  `arraySum(r -> if(arrayExists(o -> o.1 = r.1 AND (o.2, o.3) > (r.2, r.3), ${receipts}), 0, ${value}), ${receipts})`;
