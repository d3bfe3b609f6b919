import { z } from 'zod';
import { freeText, labelText } from './text.ts';

/**
 * The wire format between the browser SDK (`packages/sdk`) and `POST /api/v1/events`.
 *
 * The SDK sends `text/plain` bodies (no CORS preflight), so the API key travels in the body.
 * The SDK imports only the types of this file; the server parses with the schemas.
 */

export const MAX_BATCH_BYTES = 64 * 1024;
export const MAX_EVENTS_PER_BATCH = 100;

// Identifiers and names (labelText) hold no control characters; messages and stacks (freeText) may
// break lines. Neither holds a lone surrogate, which no store can keep (text.ts).
const shortText = labelText(256);
const mediumText = labelText(2048);
const longText = freeText(16 * 1024);
/**
 * 0x-prefixed hex, e.g. selectors. Checks only: the schemas have no transforms or refinements, so the
 * server can compile them into a fast validator (z.toJSONSchema) that accepts exactly what they accept.
 * Hex is stored lower-cased; the server lower-cases it.
 */
const hex = (maxLength: number) =>
  z
    .string()
    .max(maxLength)
    .regex(/^0x[0-9a-fA-F]*$/, 'expected 0x-prefixed hex');
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 20-byte address (0x and 40 hex digits)');
const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 32-byte hash (0x and 64 hex digits)');
/** Big numbers (wei, gas, nonces) travel as decimal strings. */
const decimal = z.string().max(78).regex(/^\d+$/, 'expected a non-negative decimal integer string');
const chainId = z
  .number()
  .int()
  .positive()
  .max(2 ** 53 - 1);

export const UtmSchema = z
  .object({
    source: shortText.optional(),
    medium: shortText.optional(),
    campaign: shortText.optional(),
    content: shortText.optional(),
    term: shortText.optional(),
  })
  .strict();
export type Utm = z.infer<typeof UtmSchema>;

/** The wallet as the SDK saw it when the event happened. */
export const WalletContextSchema = z
  .object({
    address: address.optional(),
    /** EIP-6963 name (e.g. "MetaMask") or a name guessed from `window.ethereum` flags. */
    provider: shortText.optional(),
    rdns: shortText.optional(),
    chainId: chainId.optional(),
  })
  .strict();
export type WalletContext = z.infer<typeof WalletContextSchema>;

/** Fields every event carries. */
const base = {
  /** Client-generated id, unique per event: the server de-duplicates on (project, id). */
  id: z
    .string()
    .min(8)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'expected [A-Za-z0-9_-]'),
  /** Milliseconds since the epoch, client clock. */
  ts: z.number().int().nonnegative().max(8.64e15),
  userId: labelText(64).min(1),
  sessionId: labelText(64).min(1),
  path: mediumText,
  referrer: mediumText.optional(),
  utm: UtmSchema.optional(),
  wallet: WalletContextSchema.optional(),
};

export const PageViewEventSchema = z
  .object({ ...base, type: z.literal('page_view'), title: shortText.optional() })
  .strict();

/** A wallet provider is present in the page (injected or EIP-6963 announced). Once per provider and session. */
export const WalletDetectedEventSchema = z.object({ ...base, type: z.literal('wallet_detected') }).strict();

export const WalletConnectedEventSchema = z.object({ ...base, type: z.literal('wallet_connected') }).strict();
export const WalletDisconnectedEventSchema = z
  .object({ ...base, type: z.literal('wallet_disconnected') })
  .strict();
export const ChainChangedEventSchema = z.object({ ...base, type: z.literal('chain_changed') }).strict();

export const TxStages = [
  'requested',
  'rejected',
  'failed',
  'submitted',
  'confirmed',
  'reverted',
  'replaced',
  'dropped',
] as const;
export type TxStage = (typeof TxStages)[number];

export const RpcErrorSchema = z.object({ code: z.number().int().optional(), message: longText }).strict();

/**
 * One step in a transaction's life. All steps of one transaction share `txId`.
 * requested → rejected (4001) | failed | submitted (hash) → confirmed | reverted | replaced | dropped.
 */
export const TxEventSchema = z
  .object({
    ...base,
    type: z.literal('tx'),
    txId: labelText(64).min(1),
    stage: z.enum(TxStages),
    hash: txHash.optional(),
    from: address.optional(),
    to: address.optional(),
    value: decimal.optional(),
    /** First 4 bytes of calldata; absent for a plain coin transfer. */
    selector: hex(10).optional(),
    kind: z.enum(['coin', 'contract']),
    chainId: chainId.optional(),
    gasLimit: decimal.optional(),
    gasPrice: decimal.optional(),
    maxFeePerGas: decimal.optional(),
    maxPriorityFeePerGas: decimal.optional(),
    nonce: decimal.optional(),
    gasUsed: decimal.optional(),
    effectiveGasPrice: decimal.optional(),
    blockNumber: decimal.optional(),
    /** Hash of the transaction that replaced this one (stage `replaced`). */
    replacedBy: txHash.optional(),
    error: RpcErrorSchema.optional(),
  })
  .strict();
export type TxEvent = z.infer<typeof TxEventSchema>;

export const SignatureStages = ['requested', 'signed', 'rejected', 'failed'] as const;
export const SignatureEventSchema = z
  .object({
    ...base,
    type: z.literal('signature'),
    signatureId: labelText(64).min(1),
    stage: z.enum(SignatureStages),
    method: z.enum(['personal_sign', 'eth_signTypedData_v4']),
    error: RpcErrorSchema.optional(),
  })
  .strict();

/** Wallet state captured when an error happened. */
export const WalletStateSchema = z
  .object({
    gasBalance: decimal.optional(),
    nonce: decimal.optional(),
    chainId: chainId.optional(),
    provider: shortText.optional(),
  })
  .strict();

export const ErrorSources = ['window', 'promise', 'wallet'] as const;
export const ErrorEventSchema = z
  .object({
    ...base,
    type: z.literal('error'),
    source: z.enum(ErrorSources),
    message: longText,
    stack: longText.optional(),
    /** RPC error code and method, for failed wallet calls (source `wallet`). */
    code: z.number().int().optional(),
    method: shortText.optional(),
    walletState: WalletStateSchema.optional(),
  })
  .strict();

/** Limits of a custom event's properties and an identify's traits (docs/custom-events.md). */
export const MAX_PROPERTIES = 20;
export const MAX_PROPERTY_TEXT = 256;

/**
 * Properties of a custom event or traits of an identify: at most 20 keys of 1–64 characters without control
 * characters, each value a string of at most 256 characters, a finite number or a boolean (no nesting). The
 * count is checked twice: by the refinement for zod and by `maxProperties` for the compiled validator.
 */
export const PropertiesSchema = z
  .record(labelText(64).min(1), z.union([labelText(MAX_PROPERTY_TEXT), z.number(), z.boolean()]))
  .refine((props) => Object.keys(props).length <= MAX_PROPERTIES, `at most ${MAX_PROPERTIES} properties`)
  .meta({ maxProperties: MAX_PROPERTIES });
export type Properties = z.infer<typeof PropertiesSchema>;

/** An event the dapp names itself: `polyflow.track(name, props?)`. */
export const CustomEventSchema = z
  .object({
    ...base,
    type: z.literal('custom'),
    name: labelText(64).min(1),
    props: PropertiesSchema.optional(),
  })
  .strict();

/** The dapp tells its own id of the user: `polyflow.identify(appUserId, traits?)`. */
export const IdentifyEventSchema = z
  .object({
    ...base,
    type: z.literal('identify'),
    appUserId: labelText(64).min(1),
    traits: PropertiesSchema.optional(),
  })
  .strict();

export const EventSchema = z.discriminatedUnion('type', [
  PageViewEventSchema,
  WalletDetectedEventSchema,
  WalletConnectedEventSchema,
  WalletDisconnectedEventSchema,
  ChainChangedEventSchema,
  TxEventSchema,
  SignatureEventSchema,
  ErrorEventSchema,
  CustomEventSchema,
  IdentifyEventSchema,
]);
export type IngestEvent = z.infer<typeof EventSchema>;
/** What the SDK builds (the same as what the server parses: the schemas only check). */
export type IngestEventInput = z.input<typeof EventSchema>;
export type EventType = IngestEvent['type'];

export const BatchSchema = z
  .object({
    apiKey: labelText(128).min(1),
    sdkVersion: labelText(32).optional(),
    /** The dapp's release (a version or a commit), from the SDK's `release` option: stored with every event of the batch (docs/releases.md). */
    release: labelText(64).min(1).optional(),
    events: z.array(EventSchema).min(1).max(MAX_EVENTS_PER_BATCH),
  })
  .strict();
export type Batch = z.infer<typeof BatchSchema>;
export type BatchInput = z.input<typeof BatchSchema>;

/**
 * Answer of `POST /api/v1/events`: how many were stored, how many were already known (retries), and the
 * events left out because they would pass the project's custom-event limits (only when there are some).
 */
export const BatchResultSchema = z.object({
  accepted: z.number(),
  duplicates: z.number(),
  dropped: z
    .array(
      z.object({
        index: z.number().int().describe("the event's place in the batch, from 0"),
        errorCode: z.literal('CUSTOM_EVENT_LIMIT'),
        message: z.string(),
      }),
    )
    .optional(),
});
export type BatchResult = z.infer<typeof BatchResultSchema>;
