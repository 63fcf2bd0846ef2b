/**
 * The client families (decisions §2) as the login log names them, and the card-holder portal
 * (decisions §14), which answers in the standard envelope and never logs in a card. Plain data in
 * core/: the access gate, the login log and the OpenAPI document all read it.
 */
export const CLIENT_FAMILY_NAMES = ['connect', 'v3', 'sdk', 'legacy', 'portal'] as const;
export type ClientFamilyName = (typeof CLIENT_FAMILY_NAMES)[number];

/** What a family's routes need besides the common checks of the interface gate (see `FAMILY_GATES`). */
export interface GateOptions {
  /** Standard, SDK and legacy routes need the standard API basic package. */
  requireBasicPackage: boolean;
  /** Connect routes need Connect opened by the platform's opening mode. */
  requireConnect?: boolean;
}

const BASIC_PACKAGE: GateOptions = { requireBasicPackage: true };

/**
 * What the interface gate asks of each family (decisions §3, §7): Connect needs Connect opened by
 * the platform's opening mode; the standard family (V3, SDK), the legacy family and the portal the
 * basic package.
 */
export const FAMILY_GATES: Readonly<Record<ClientFamilyName, GateOptions>> = {
  connect: { requireBasicPackage: false, requireConnect: true },
  v3: BASIC_PACKAGE,
  sdk: BASIC_PACKAGE,
  legacy: BASIC_PACKAGE,
  portal: BASIC_PACKAGE,
};
