import { accessEn } from './access';
import { contentEn } from './content';
import { connectEn } from './connect';
import { bulkEn } from './bulk';
import { cardsManageEn } from './cards-manage';
import { cardTypesEn } from './card-types';
import { agentsEn } from './agents';
import { agentPricesEn } from './agent-prices';
import { usersEn } from './users';
import { sessionsEn } from './sessions';
import { webhooksEn } from './webhooks';
import { mailEn } from './mail';
import { sellingEn } from './selling';
import { apiKeysEn } from './api-keys';
import { twoFactorEn } from './two-factor';
import { accountEn } from './account';
import { auditEn } from './audit';
import { portalEn } from './portal';
import { storefrontEn } from './storefront';
import { platformEn } from './platform';
import { backupsEn } from './backups';
import { operationsEn } from './operations';
import { loginBlacklistEn, requestsEn } from './requests';
import { catalogEn } from './catalog';
import { importProblemsEn } from './import-problems';
import { timeEn } from './time';
import { interfacesEn } from './interfaces';

/** English texts of the console. zh-CN.ts has the same keys (its type is this object's). */
export const en = {
  app: {
    title: 'Card-key console',
    language: 'Language',
    signOut: 'Sign out',
    menu: 'Navigation',
    projects: 'Projects',
    settings: 'Settings',
    cards: 'Cards',
    notFound: 'This page does not exist.',
    backHome: 'Back to the projects',
    loading: 'Loading…',
  },
  roles: { platform_admin: 'platform admin', author: 'author', agent: 'agent' },
  signIn: {
    title: 'Sign in',
    username: 'User name',
    password: 'Password',
    submit: 'Sign in',
    hint: 'The first platform admin is "admin": the service prints at start where its password is (ADMIN_PASSWORD, or the file data/admin-password.txt it generated). Authors get their account from a platform admin.',
    expired: 'Your session ended: sign in again.',
    /** Refusals of a sign-in in the console's words (the catalog's texts speak of API calls). */
    failures: {
      11001: 'Wrong user name or password',
      11004: 'This account is disabled: ask a platform admin to enable it',
      10302: 'Too many failed sign-ins: wait a minute before trying again',
    },
  },
  errors: {
    title: 'The service refused this',
    unreachable: 'The service cannot be reached',
    code: 'Code',
    requestId: 'Request id',
    details: 'Details',
    serviceSays: 'The service says',
  },
  common: {
    save: 'Save',
    cancel: 'Cancel',
    create: 'Create',
    delete: 'Delete',
    confirm: 'Confirm',
    copy: 'Copy',
    close: 'Close',
    search: 'Search',
    reset: 'Reset',
    yes: 'Yes',
    no: 'No',
    unlimited: 'Unlimited',
    never: 'Never',
    none: 'None',
    saved: 'Saved',
    total: '{{count}} in all',
    optional: 'optional',
    actions: 'Actions',
    permanent: 'Permanent',
  },
  shownOnce: {
    title: 'Copy these now',
    warning:
      'They are shown this once. The service keeps them encrypted and will only ever show the last four characters again: store them where your program reads its configuration.',
    saved: 'I have stored them',
  },
  projects: {
    title: 'Projects',
    new: 'New project',
    searchPlaceholder: 'Name or program ID',
    name: 'Name',
    programId: 'Program ID',
    status: 'Status',
    created: 'Created',
    empty: 'No project yet: create the first one for your program.',
    createTitle: 'New project',
    nameHelp: 'Shown to you only; 1 to 100 characters.',
    createdTitle: 'Project "{{name}}" created',
    statuses: { active: 'active', disabled: 'disabled' },
    openCards: 'Cards',
    deleteProject: 'Delete project',
    deleteConfirmTitle: 'Delete "{{name}}"?',
    deleteConfirmText:
      'Its cards, program users, files and login log are deleted with it, and its clients stop working at once. This cannot be undone.',
    deleted: 'Project deleted',
    tabs: { settings: 'Settings', secrets: 'Secrets' },
  },
  secrets: {
    intro: 'Client programs sign their requests with these. Only the last four characters are shown.',
    api_secret: 'API secret (HTTP V3, SDK v1 signatures)',
    legacy_secret: 'Legacy secret (MD5 signatures of the legacy routes)',
    transport_key: 'Transport key (RC4/AES transport of the legacy aggregate route)',
    rotate: 'Rotate',
    rotateTitle: 'Rotate the {{name}}?',
    rotateText: 'A new value is made at once: every client still using the old one is refused until it has the new one.',
    rotated: 'New {{name}}',
  },
  settings: {
    groups: {
      general: 'General',
      cards: 'Cards and devices',
      sessions: 'Sessions and offline use',
      users: 'Program users',
      security: 'Security',
      access: 'Connect and portal',
      entitlements: 'Entitlements (set by the platform admin)',
    },
    saveChanges: 'Save changes',
    noChanges: 'Nothing changed',
    fields: {
      name: { label: 'Name', help: 'Shown to you only.' },
      status: { label: 'Status', help: 'Disabled: every client interface of this program is refused.' },
      verification_enabled: {
        label: 'Verification',
        help: 'The master switch: off, every client interface answers "verification switched off".',
      },
      device_limit: {
        label: 'Devices per card',
        help: 'How many devices a new card may bind (1–1000). Cards already made keep theirs.',
      },
      concurrent_limit: {
        label: 'Sessions at once per card',
        help: 'Default seat limit of new cards: live SDK sessions at once (1–1000). Empty: unlimited.',
      },
      seat_policy: {
        label: 'When the seats are full',
        help: '"Refuse" answers SEATS_FULL; "evict the oldest" ends the oldest session of the card and lets the new login in.',
      },
      unbind_enabled: {
        label: 'End users may unbind',
        help: 'Lets a card holder unbind a device by themselves (client unbind route and portal).',
      },
      unbind_deduct_seconds: {
        label: 'Time taken per unbind',
        help: "Taken off a dated card's expiry at each end-user unbind (0 – 10 years).",
      },
      unbind_max: { label: 'Unbinds per card', help: 'How many end-user unbinds a card allows (0–100000). Empty: unlimited.' },
      unbind_cooldown_seconds: {
        label: 'Wait between unbinds',
        help: 'Shortest time between two end-user unbinds of one card (0 = none, at most 30 days). A refusal tells when to retry.',
      },
      unbind_max_per_30_days: {
        label: 'Unbinds per card in 30 days',
        help: 'End-user unbinds of one card in any 30 days (0–100000). Empty: unlimited.',
      },
      device_idle_release_seconds: {
        label: 'Free silent devices after',
        help: 'A bound device with no login or heartbeat for this long gives its place to a new device (0 = off, at least 60 s).',
      },
      trial_card_type_id: {
        label: 'Trial card type',
        help: 'Each device may ask once, for ever, for one card of this type, already bound to it (client trial route). Empty: no trials.',
      },
      session_ttl_seconds: {
        label: 'Session lifetime',
        help: 'A session not renewed by a heartbeat ends after this (30 s – 30 days).',
      },
      heartbeat_interval_seconds: {
        label: 'Heartbeat interval',
        help: 'How often clients are told to send a heartbeat (5 s – 1 day).',
      },
      offline_grace_seconds: {
        label: 'Longest offline licence',
        help: 'Longest licence a client may check out to run offline (0 = off, at most 30 days).',
      },
      user_machine_policy: {
        label: 'Program user devices',
        help: '"Rebind" moves the user to the new device, "locked" refuses another device, "free" allows any device.',
      },
      transport_encryption: {
        label: 'Transport encryption (legacy)',
        help: 'Encryption of the legacy aggregate route. aes-gcm is authenticated: prefer it for new clients; aes (CBC) and rc4 are for old ones.',
      },
      response_signing: {
        label: 'Sign answers',
        help: 'Every client answer carries an Ed25519 signature your program can check, so a fake server cannot answer for this one.',
      },
      ip_bindings: {
        label: 'Bound client IPs',
        help: 'Only these client addresses may call the client interfaces. Empty: any address.',
      },
      card_guess_limit_per_minute: {
        label: 'Wrong card keys per minute',
        help: 'Card keys matching no card one client address may send in a minute; beyond, the card routes answer "too many requests" without looking the key up (1–10000).',
      },
      connect_enabled: {
        label: 'Connect switch',
        help: "The self-service switch of the Connect route. It decides only when the platform's opening mode is self-service (the Connect page says what opens Connect now).",
      },
      portal_enabled: {
        label: 'Card-holder portal',
        help: 'Lets card holders see their card and unbind devices on the public portal.',
      },
      basic_package: { label: 'Basic package', help: 'The standard API basic package (HTTP V3, SDK, legacy, portal).' },
      plan_level: { label: 'Plan level', help: "Compared with the platform's minimum level for Connect (0–1000)." },
      licence_verify: { label: 'Licence verification', help: 'Allows /api/verify (site licences).' },
    },
    options: {
      refuse: 'Refuse',
      evict_oldest: 'Evict the oldest',
      rebind: 'Rebind',
      locked: 'Locked',
      free: 'Free',
      none: 'None',
    },
    invalidIp: '{{value}} is not an IP address',
    trialOff: 'Off: no trials',
    trialTypeDisabled: 'disabled',
    noCardTypes: 'No enabled card type yet: create one on the Card types page',
  },
  access: accessEn,
  content: contentEn,
  connect: connectEn,
  bulk: bulkEn,
  cardsManage: cardsManageEn,
  cardTypes: cardTypesEn,
  agents: agentsEn,
  agentPrices: agentPricesEn,
  users: usersEn,
  sessions: sessionsEn,
  webhooks: webhooksEn,
  mail: mailEn,
  selling: sellingEn,
  apiKeys: apiKeysEn,
  twoFactor: twoFactorEn,
  account: accountEn,
  audit: auditEn,
  portal: portalEn,
  storefront: storefrontEn,
  platform: platformEn,
  backups: backupsEn,
  operations: operationsEn,
  requests: requestsEn,
  loginBlacklist: loginBlacklistEn,
  catalog: catalogEn,
  importProblem: importProblemsEn,
  time: timeEn,
  interfaces: interfacesEn,
  cards: {
    title: 'Cards',
    generate: 'Generate cards',
    export: 'Export CSV',
    exported: 'Export downloaded',
    exportAs: 'Export',
    exportFormats: {
      excel: 'CSV for Excel (local times, days, card type)',
      data: 'CSV for re-import (UTC times, seconds)',
      txt: 'Card keys only, one a line (.txt)',
    },
    code: 'Code',
    status: 'Status',
    kind: 'Kind',
    devices: 'Devices',
    activated: 'First login',
    expires: 'Expires',
    lastLogin: 'Last login',
    usesLeft: 'Logins left',
    duration: 'Validity',
    note: 'Note',
    batch: 'Batch',
    useCount: 'Logins',
    deviceLimit: 'Devices allowed',
    concurrentLimit: 'Sessions at once',
    statuses: { unused: 'unused', active: 'active', banned: 'banned', consumed: 'consumed', stock: 'stock (unsold)' },
    kinds: { time: 'time', count: 'count' },
    filters: { status: 'Any status', batch: 'Batch id', code: 'Code contains', device: 'Device code' },
    empty: 'No card matches.',
    ban: 'Ban',
    unban: 'Unban',
    banTitle: 'Ban this card?',
    banText: 'Its next login is refused, on every device, until you unban it.',
    banned: 'Card banned',
    unbanned: 'Card unbanned',
    unbind: 'Unbind',
    unbindTitle: 'Unbind {{machine}}?',
    unbindText:
      'The device is removed from the card: it must log in again, and frees a place for another device. Nothing is taken off the card.',
    unbound: 'Device unbound',
    boundAt: 'Bound',
    machineCode: 'Device code',
    noDevices: 'No device has logged in with this card yet.',
    cardTitle: 'Card {{code}}',
  },
  generate: {
    title: 'Generate cards',
    count: { label: 'How many', help: '1 to 10,000 in one batch.' },
    kind: {
      label: 'Kind',
      help: 'A time card runs for a duration from its first login; a count card allows a number of logins.',
    },
    duration: { label: 'Validity', help: 'From the first login. 0 = permanent (a count card with 0 never expires).' },
    uses: { label: 'Logins', help: 'Logins of a count card (1 – 1,000,000); each successful login takes one.' },
    device_limit: { label: 'Devices per card', help: "Empty: the project's setting." },
    concurrent_limit: { label: 'Sessions at once', help: "Empty: the project's setting." },
    unlimitedSeats: 'No seat limit',
    prefix: { label: 'Prefix', help: 'Up to 16 letters, digits or hyphens, put before the 20 random characters.' },
    note: { label: 'Note', help: 'Up to 200 characters, kept on every card of the batch.' },
    units: { seconds: 'seconds', minutes: 'minutes', hours: 'hours', days: 'days' },
    prefixInvalid: 'Up to 16 of A–Z, a–z, 0–9 and -',
    doneTitle: '{{count}} cards generated',
    doneText: 'Batch {{batch}}. The codes stay in the list; copy or download them for your shop.',
    download: 'Download .txt',
    showBatch: 'Show this batch',
  },
} as const;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type Texts = Widen<typeof en>;
