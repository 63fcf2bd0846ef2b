/**
 * Why the request log's request was answered so (decisions §22): one text per explanation code
 * and case the API answers (`explanation`), worded here in both languages; pages/logs/explanation.ts
 * picks the text and fills in the facts. Times are the reader's zone.
 */
export const explanationsEn = {
  accepted: 'Accepted.',
  acceptedVia: 'Accepted ({{interface}}).',
  cardUnknown: 'No card of this project has the key "{{key}}": a mistyped key, or a key of another program.',
  cardBanned: "The card {{card}} was banned before this request and still is; unban it on the card's page to let it in.",
  cardBannedBy: "The card {{card}} was banned on {{at}} by {{by}} and still is; unban it on the card's page to let it in.",
  cardBannedLifted: 'The card {{card}} was banned before this request (it has been unbanned since).',
  cardBannedByLifted: 'The card {{card}} was banned on {{at}} by {{by}} (it has been unbanned since).',
  cardBannedGone: 'The card was banned (it has since been deleted).',
  cardExpired: 'The card {{card}} expired on {{at}}; extend or renew it.',
  cardExpiredExtended: 'The card {{card}} expired on {{at}} (it has been extended since).',
  cardExpiredGone: 'The card had expired.',
  deviceLimit:
    'Device limit {{limit}} reached: bound to {{devices}}; {{device}} was refused. Unbind a device or raise the limit.',
  deviceLimitGone: 'The card had no device slot left for this device.',
  boundSince: '{{device}} since {{at}}',
  listSeparator: ', ',
  devicesUnbound: 'devices since unbound',
  thisDevice: 'this device',
  quota:
    'The daily quota of {{interface}} ({{quota}} a day) was used up; it resets at midnight, or the platform admin can raise it.',
  quotaUnknown: 'The daily quota of {{interface}} was used up; it resets at midnight, or the platform admin can raise it.',
  blacklistedDevice:
    'The device {{value}} is on the login blacklist (entry {{entry}}, added {{added}}, {{until}}); remove the entry to let it in.',
  blacklistedAddress:
    'The address {{value}} is on the login blacklist (entry {{entry}}, added {{added}}, {{until}}); remove the entry to let it in.',
  until: 'until {{at}}',
  forGood: 'for good',
  withNote: '{{text}} Note: "{{note}}".',
  blacklistRemoved: 'The device {{device}} or the address {{ip}} was on the login blacklist (the entry has since been removed).',
  blacklistRemovedAddress: 'The address {{ip}} was on the login blacklist (the entry has since been removed).',
  signatureInvalid:
    "The request's signature did not match the program's secret: the client signs with a wrong key or secret (or the request was changed on its way). Check the API secret built into the program.",
};

export const explanationsZhCN: typeof explanationsEn = {
  accepted: '已通过。',
  acceptedVia: '已通过（{{interface}}）。',
  cardUnknown: '本项目没有卡密为“{{key}}”的卡：可能输错了卡密，或这是其他程序的卡密。',
  cardBanned: '卡密 {{card}} 在此请求之前已被封禁，至今仍被封禁；在卡密页面解封即可放行。',
  cardBannedBy: '卡密 {{card}} 于 {{at}} 被 {{by}} 封禁，至今仍被封禁；在卡密页面解封即可放行。',
  cardBannedLifted: '卡密 {{card}} 在此请求之前已被封禁（之后已解封）。',
  cardBannedByLifted: '卡密 {{card}} 于 {{at}} 被 {{by}} 封禁（之后已解封）。',
  cardBannedGone: '该卡密当时已被封禁（之后已被删除）。',
  cardExpired: '卡密 {{card}} 已于 {{at}} 到期；请延期或续费。',
  cardExpiredExtended: '卡密 {{card}} 已于 {{at}} 到期（之后已延期）。',
  cardExpiredGone: '该卡密当时已到期。',
  deviceLimit: '已达到设备上限 {{limit}}：已绑定 {{devices}}；{{device}} 被拒绝。请解绑一台设备或提高上限。',
  deviceLimitGone: '该卡密当时已没有可供此设备使用的名额。',
  boundSince: '{{device}}（自 {{at}} 起）',
  listSeparator: '、',
  devicesUnbound: '之后已解绑的设备',
  thisDevice: '此设备',
  quota: '接口 {{interface}} 的每日配额（每天 {{quota}} 次）已用完；午夜重置，或由平台管理员提高配额。',
  quotaUnknown: '接口 {{interface}} 的每日配额已用完；午夜重置，或由平台管理员提高配额。',
  blacklistedDevice: '设备 {{value}} 在登录黑名单中（条目 {{entry}}，添加于 {{added}}，{{until}}）；删除该条目即可放行。',
  blacklistedAddress: '地址 {{value}} 在登录黑名单中（条目 {{entry}}，添加于 {{added}}，{{until}}）；删除该条目即可放行。',
  until: '有效至 {{at}}',
  forGood: '永久有效',
  withNote: '{{text}}备注：“{{note}}”。',
  blacklistRemoved: '设备 {{device}} 或地址 {{ip}} 当时在登录黑名单中（该条目之后已被删除）。',
  blacklistRemovedAddress: '地址 {{ip}} 当时在登录黑名单中（该条目之后已被删除）。',
  signatureInvalid: '请求的签名与程序的密钥不符：客户端用错了密钥（或请求在途中被改动）。请检查程序中内置的 API 密钥。',
};
