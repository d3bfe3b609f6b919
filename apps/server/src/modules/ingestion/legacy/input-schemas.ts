import { freeText, labelText } from '@polyflow/contracts/text';
import { z } from 'zod';

/**
 * Limits on what GraphQL's types let through: lengths, hex and decimal formats, and text the stores can
 * hold (no control characters or lone surrogates, `@polyflow/contracts/text`). Empty strings and nulls
 * (the SDK sends both) become undefined.
 */
const blankToUndefined = (value: unknown) => (value === null || value === '' ? undefined : value);
const text = (max: number) => z.preprocess(blankToUndefined, labelText(max).optional());
const decimal = z.preprocess(
  blankToUndefined,
  z.string().max(78).regex(/^\d+$/, 'expected a non-negative decimal integer string').optional(),
);
const hex = (length: number | undefined, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(max)
      .regex(/^0x[0-9a-fA-F]*$/, 'expected 0x-prefixed hex')
      .refine((value) => length === undefined || value.length === length, `expected ${length} characters`)
      .transform((value) => value.toLowerCase())
      .optional(),
  );
const chainId = z.preprocess(
  blankToUndefined,
  z
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1)
    .optional(),
);

export const TrackerSchema = z.object({
  eventTracker: labelText(32),
  userId: labelText(64).min(1),
  sessionId: labelText(64).min(1),
  utmSource: text(256),
  utmMedium: text(256),
  utmCampaign: text(256),
  utmContent: text(256),
  utmTerm: text(256),
  origin: text(256),
  path: text(2048),
  query: text(2048),
  referrer: text(2048),
  sdkVersion: text(32),
});

const WalletSchema = z.object({
  walletAddress: hex(42, 42),
  gasBalance: decimal,
  nonce: decimal,
  networkId: chainId,
});
const NetworkSchema = z.object({ chainId, gasPrice: decimal, blockHeight: decimal });
const DeviceSchema = z.object({
  os: text(64),
  browser: text(64),
  country: text(64),
  walletProvider: text(64),
  walletType: text(64),
});

const context = {
  tracker: TrackerSchema,
  device: z.preprocess(blankToUndefined, DeviceSchema.optional()),
  wallet: z.preprocess(blankToUndefined, WalletSchema.optional()),
  network: z.preprocess(blankToUndefined, NetworkSchema.optional()),
};

export const ContextEventSchema = z.object(context);
export type LegacyContextEvent = z.infer<typeof ContextEventSchema>;

export const TxStatuses = ['PENDING', 'SUCCESS', 'FAILURE', 'CANCELLED'] as const;
export type TxStatus = (typeof TxStatuses)[number];

export const TxRequestSchema = z.object({
  ...context,
  tx: z.object({
    from: hex(42, 42).pipe(z.string()),
    to: hex(42, 42),
    value: decimal,
    input: hex(undefined, 128 * 1024),
    nonce: decimal,
    gas: decimal,
    gasPrice: decimal,
    maxFeePerGas: decimal,
    maxPriorityFeePerGas: decimal,
    hash: hex(66, 66),
    status: z.enum(TxStatuses),
  }),
});
export type LegacyTxRequest = z.infer<typeof TxRequestSchema>;

export const ErrorEventSchema = z.object({
  ...context,
  errors: z.preprocess((value) => value ?? [], z.array(freeText(16 * 1024)).max(20)),
});

export const SdkErrorSchema = z.object({
  tracker: TrackerSchema,
  metadata: z.preprocess(blankToUndefined, freeText(16 * 1024).optional()),
});
