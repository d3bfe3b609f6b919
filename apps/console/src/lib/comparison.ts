/**
 * The comparison with the previous period is defined once, in the contracts, because the server's email
 * reports (modules/reports) state the same changes the console shows.
 */
export {
  type ChangeDirection,
  type ChangeKind,
  type Comparison,
  compare,
  describeComparison,
} from '@polyflow/contracts/comparison';
