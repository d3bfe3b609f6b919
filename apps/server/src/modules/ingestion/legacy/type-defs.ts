/**
 * The published `@polyflow/sdk@1.0.25` protocol (reference file). Its documents name
 * `UserLandedEventInput`, `WalletConnectedEventInput`, `TxRequestEventInput`, `ErrorEventInput`,
 * `SdkErrorEventInput`, `TxStatus` and `UUID`: those names must not change. Fields are nullable
 * wherever the SDK may send null or leave them out; lengths and formats are checked after parsing.
 */
export const legacyTypeDefs = `
  enum TxStatus { PENDING SUCCESS FAILURE CANCELLED }

  input LegacyTrackerInput {
    eventTracker: String!
    userId: String!
    sessionId: String!
    utmSource: String
    utmMedium: String
    utmCampaign: String
    utmContent: String
    utmTerm: String
    origin: String
    path: String
    query: String
    referrer: String
    sdkVersion: String
  }
  input LegacyWalletInput { walletAddress: String, gasBalance: String, nonce: String, networkId: Float }
  input LegacyNetworkInput { chainId: Float, gasPrice: String, blockHeight: String }
  input LegacyScreenInput { w: Float, h: Float }
  input LegacyDeviceInput {
    os: String
    browser: String
    country: String
    screen: LegacyScreenInput
    walletProvider: String
    walletType: String
  }
  input LegacyTxInput {
    from: String!
    to: String
    value: String
    input: String
    nonce: String
    gas: String
    gasPrice: String
    maxFeePerGas: String
    maxPriorityFeePerGas: String
    v: String
    r: String
    s: String
    hash: String
    status: TxStatus!
  }

  input UserLandedEventInput {
    tracker: LegacyTrackerInput!
    device: LegacyDeviceInput
    wallet: LegacyWalletInput
    network: LegacyNetworkInput
  }
  input WalletConnectedEventInput {
    tracker: LegacyTrackerInput!
    device: LegacyDeviceInput
    wallet: LegacyWalletInput
    network: LegacyNetworkInput
  }
  input TxRequestEventInput {
    tracker: LegacyTrackerInput!
    device: LegacyDeviceInput
    wallet: LegacyWalletInput
    network: LegacyNetworkInput
    tx: LegacyTxInput!
  }
  input ErrorEventInput {
    tracker: LegacyTrackerInput!
    device: LegacyDeviceInput
    wallet: LegacyWalletInput
    network: LegacyNetworkInput
    errors: [String!]
  }
  input SdkErrorEventInput { tracker: LegacyTrackerInput!, metadata: String }

  type LegacyTracker { userId: String!, sessionId: String! }
  type UserLandedEvent { id: UUID!, tracker: LegacyTracker! }
  type WalletConnectedEvent { id: UUID!, tracker: LegacyTracker! }
  type TxRequestEvent { id: UUID!, tracker: LegacyTracker! }
  type ErrorEvent { id: UUID!, tracker: LegacyTracker! }
  type SdkErrorEvent { id: UUID!, tracker: LegacyTracker! }

  type Mutation {
    createUserLandedEvent(event: UserLandedEventInput!): UserLandedEvent!
    createWalletConnectedEvent(event: WalletConnectedEventInput!): WalletConnectedEvent!
    createTxRequestEvent(event: TxRequestEventInput!): TxRequestEvent!
    createErrorEvent(event: ErrorEventInput!): ErrorEvent!
    createSdkErrorEvent(event: SdkErrorEventInput!): SdkErrorEvent!
    "Records the outcome of a transaction request created earlier (a new row: the store is append-only)."
    updateTxRequestEventTxStatus(id: UUID!, newStatus: TxStatus!): TxRequestEvent!
  }
`;
