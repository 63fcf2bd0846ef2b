/** Answers' `data`, as the service sends it (snake_case); further fields may appear at any time. */
type Open = Record<string, unknown>;

/** A card login of the standard family; `token` and `statecode` are copied from the answer's top level. */
export interface StandardCardData extends Open {
  id: number;
  code: string;
  machine_code: string;
  expires_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  expires_at_iso?: string;
  token: string;
  statecode: string;
  /** The card type's features (decisions §19); [] for a card without a type; absent from an older service. */
  features?: string[];
  /** A device's trial card (decisions §21); false for any other card; absent from an older service. */
  trial?: boolean;
}

export interface SdkCardLoginData extends StandardCardData {
  session_token: string;
  session_expires_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  session_expires_at_iso?: string;
  heartbeat_interval_seconds?: number;
}

export interface HeartbeatData extends Open {
  session_expires_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  session_expires_at_iso?: string;
  server_time: number;
  card_id?: number;
  user_id?: number;
  /** A card heartbeat: the card type's features as they are now (decisions §19). */
  features?: string[];
  /** A device's trial card (decisions §21); false for any other card; absent from an older service. */
  trial?: boolean;
}

export interface UserProfile extends Open {
  user_id: number;
  username: string;
  status: string;
  created_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  created_at_iso?: string;
  last_login_at: string | null;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  last_login_at_iso?: string | null;
}

export interface UserRegisterData extends Open {
  user_id: number;
  username: string;
  status: string;
}

export interface UserLoginData extends Open {
  profile: UserProfile;
  session_token: string;
  session_expires_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  session_expires_at_iso?: string;
  /** The machine the account is finally bound to. */
  machine_id: string;
  heartbeat_interval_seconds?: number;
}

export interface VersionData extends Open {
  latest_version: string | null;
  update_available: boolean;
  force_update: boolean;
  changelog: string | null;
  download_url: string | null;
}

export interface ConnectLoginData extends Open {
  token: string;
  expires_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  expires_at_iso?: string;
  device_limit: number;
  server_time: number;
  machine_code: string;
  announcement: string;
  /** The card type's features (decisions §19); [] for a card without a type; absent from an older service. */
  features?: string[];
  /** A device's trial card (decisions §21); false for any other card; absent from an older service. */
  trial?: boolean;
}

export interface LegacyCardData extends Open {
  id: number;
  code: string;
  machine_code: string;
  expires_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  expires_at_iso?: string;
}

export interface LegacyLoginData extends LegacyCardData {
  token: string;
  device_limit: number;
  /** The card type's features (decisions §19); [] for a card without a type; absent from an older service. */
  features?: string[];
  /** A device's trial card (decisions §21); false for any other card; absent from an older service. */
  trial?: boolean;
}

export interface LegacyUnbindData extends LegacyCardData {
  unbind_count: number;
}

/** The session the client holds after an SDK card or user login. */
export interface Session {
  type: 'card' | 'app_user';
  token: string;
  machineId: string;
  expiresAt: string;
  /** The program's heartbeat interval, when the service sent it. */
  heartbeatIntervalSeconds?: number;
  /** The card of a card session (its login's `id`): a heartbeat answer must name it (`card_id`). */
  cardId?: number;
  /** The user of a user session (its login's `profile.user_id`): a heartbeat answer must name it (`user_id`). */
  userId?: number;
}

/** `/api/v1/cards/checkout` success data (decisions §15). */
export interface CheckoutData extends Open {
  /** `base64url(payload).base64url(signature)`: keep it; verify it with `checkLicence`. */
  licence: string;
  kid: string;
  /** `YYYY-MM-DD HH:MM:SS` in the service time zone. */
  expires_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  expires_at_iso?: string;
  /** Unix seconds. */
  valid_until: number;
}

/**
 * A card as its holder sees it (decisions §13–14). `kind` is `time` or `count`; `status` is
 * `unused`, `active` or `banned`; `expires_at` (`YYYY-MM-DD HH:MM:SS`, service time zone) is null
 * while the card is unused (its time starts at the first login); `uses_left` is null for a time card.
 */
export interface CardSummary extends Open {
  kind: string;
  status: string;
  expires_at: string | null;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  expires_at_iso?: string | null;
  uses_left: number | null;
}

/**
 * `/api/v1/cards/topup` success data: the target card after the top-up. The decisions fix only
 * that the target card is answered; count on `kind`, `status`, `expires_at` and `uses_left`, the
 * other fields of `cardInfo` may or may not be present.
 */
export interface CardTopupData extends CardSummary {
  activated_at?: string | null;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  activated_at_iso?: string | null;
  device_limit?: number;
  concurrent_limit?: number | null;
}

/** One device bound to a card, with its last successful login (null when none is logged). */
export interface CardDevice extends Open {
  machine_code: string;
  bound_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  bound_at_iso?: string;
  last_login_at: string | null;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  last_login_at_iso?: string | null;
}

/** What the holder's unbind (`cardUnbind`) would cost: the program's rules and what is left of them. */
export interface CardUnbindRules extends Open {
  enabled: boolean;
  /** Taken off `expires_at` by each unbind (not off a permanent card). */
  deduct_seconds: number;
  /** Unbinds left for this card; null = unlimited. */
  remaining: number | null;
}

/** `/api/v1/cards/info` success data (decisions §14). */
export interface CardInfoData extends CardSummary {
  activated_at: string | null;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  activated_at_iso?: string | null;
  device_limit: number;
  /** Live sessions allowed at once; null = unlimited. */
  concurrent_limit: number | null;
  devices: CardDevice[];
  unbind: CardUnbindRules;
  /** The card type's features (decisions §19); [] for a card without a type; absent from an older service. */
  features?: string[];
  /** A device's trial card (decisions §21); false for any other card; absent from an older service. */
  trial?: boolean;
}

/** `/api/v1/cards/trial` success data (decisions §21): the device's one trial card, already bound to it. */
export interface CardTrialData extends Open {
  /** The trial card key: log in with it (`cardLogin`). */
  code: string;
  /** `YYYY-MM-DD HH:MM:SS` in the service time zone. */
  expires_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  expires_at_iso?: string;
  /** The device the card is bound to; the client checks it is this one. */
  machine_code: string;
  trial: true;
  features: string[];
}

/** `/api/v1/cards/unbind` success data (answered with `code: 1`): the card after the unbind. */
export interface CardUnbindData extends Open {
  id: number;
  code: string;
  /** The device unbound. */
  machine_code: string;
  /** After the deduction, if any. */
  expires_at: string;
  /** The same instant, ISO 8601 with the offset (docs/protocol.md, "Times and zones"); absent from an older service. */
  expires_at_iso?: string;
  /** Unbinds of this card so far. */
  unbind_count: number;
}
