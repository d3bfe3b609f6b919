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
