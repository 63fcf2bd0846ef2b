/**
 * The console's text for every code of the service's error catalog (src/core/errors/error-code.ts),
 * by number (numbered codes never change, decisions §2). The English texts are the catalog's own
 * messages: when the service answers another message for a code (it says more, e.g. which limit), the
 * console shows that message too (ErrorAlert). A code missing here falls back to the service's message;
 * test/console-catalog-texts.spec.ts fails when the catalog has a code without a text here.
 */
export const catalogEn: Readonly<Record<number, string>> = {
  10001: 'The request is malformed', // BAD_REQUEST
  10002: 'This method is not allowed on this path', // METHOD_NOT_ALLOWED
  10003: 'A data ciphertext is not accepted on this protocol', // CIPHERTEXT_NOT_ALLOWED
  10004: 'The app field (public program ID) is required as a plain field', // APP_REQUIRED
  10005: 'Use the public program ID, not the internal project key', // INTERNAL_KEY_NOT_ACCEPTED
  10006: 'Not found', // NOT_FOUND
  10007: 'Unsupported content type', // UNSUPPORTED_MEDIA_TYPE
  10008: 'The request body is too large', // PAYLOAD_TOO_LARGE
  10009: 'This download address is not valid or has expired; ask for a fresh one', // DOWNLOAD_ADDRESS_INVALID
  10010: 'This route needs HTTPS; plain HTTP is refused', // HTTPS_REQUIRED
  10101: 'The signature is invalid', // SIGNATURE_INVALID
  10102: 'The timestamp is outside the allowed window', // TIMESTAMP_OUT_OF_WINDOW
  10103: 'This nonce was already used', // NONCE_REPLAYED
  10201: 'Program not found', // PROGRAM_NOT_FOUND
  10202: 'This program is disabled', // PROGRAM_DISABLED
  10203: "This program's author is disabled", // AUTHOR_DISABLED
  10204: 'Verification is switched off for this program', // VERIFICATION_SWITCH_OFF
  10205: 'The standard API basic package is not enabled for this program', // PACKAGE_NOT_ENABLED
  10206: 'This interface is not authorized for this program', // INTERFACE_NOT_AUTHORIZED
  10207: 'This interface is disabled on the platform', // INTERFACE_DISABLED
  10208: 'Connect is not enabled for this program', // CONNECT_NOT_ENABLED
  10301: 'The daily quota for this interface is used up', // QUOTA_EXCEEDED
  10302: 'Too many requests; retry later', // RATE_LIMITED
  11001: 'Authentication is required', // UNAUTHENTICATED
  11002: 'Your role may not do this', // FORBIDDEN
  11003: 'This conflicts with an existing resource', // CONFLICT
  11004: 'This admin account is disabled', // ACCOUNT_DISABLED
  11005: 'The file is larger than the upload limit', // FILE_TOO_LARGE
  11006: 'The card import has problems; nothing was imported', // CARD_IMPORT_INVALID
  11007: 'This action needs a fresh two-factor code (X-Svc-2fa-Code)', // TWO_FACTOR_REQUIRED
  11008: 'The two-factor code is wrong, expired or already used', // TWO_FACTOR_CODE_INVALID
  11009: 'The platform requires two-factor sign-in: set it up first', // TWO_FACTOR_ENROLMENT_REQUIRED
  11010: 'The webhook URL is not a public HTTP(S) address this platform may call', // WEBHOOK_TARGET_REFUSED
  11011: 'Agents go at most three levels deep', // AGENT_LEVELS_EXCEEDED
  11012: "A sub-agent gets at most its parent's projects, discount and rights", // AGENT_SCOPE_EXCEEDED
  11015: 'This API key lacks the scope this route needs', // API_KEY_SCOPE_MISSING
  11016: 'This API key may not be used from this address', // API_KEY_ADDRESS_REFUSED
  11017: 'This route takes a signed-in account, not an API key', // API_KEY_NOT_ACCEPTED
  11101: 'Project not found', // PROJECT_NOT_FOUND
  11102: 'Author not found', // AUTHOR_NOT_FOUND
  11103: 'Card not found', // CARD_NOT_FOUND
  11104: 'This device is not bound to the card', // CARD_DEVICE_NOT_FOUND
  11105: 'Program user not found', // APP_USER_NOT_FOUND
  11106: 'Announcement not found', // ANNOUNCEMENT_NOT_FOUND
  11107: 'Version not found', // VERSION_NOT_FOUND
  11108: 'File not found', // FILE_NOT_FOUND
  11109: 'Site not found', // SITE_NOT_FOUND
  11110: 'Blacklist entry not found', // BLACKLIST_ENTRY_NOT_FOUND
  11111: 'Variable not found', // VARIABLE_NOT_FOUND
  11112: 'No interface has this name', // INTERFACE_NOT_FOUND
  11113: 'No secret has this name', // SECRET_NOT_FOUND
  11114: 'No card of the project matches; nothing was changed', // MATCHING_CARDS_NOT_FOUND
  11115: 'Card type not found', // CARD_TYPE_NOT_FOUND
  11120: 'Webhook endpoint not found', // WEBHOOK_NOT_FOUND
  11121: 'Webhook delivery not found', // WEBHOOK_DELIVERY_NOT_FOUND
  11125: 'Mail not found', // MAIL_NOT_FOUND
  11130: 'Agent not found', // AGENT_NOT_FOUND
  11131: 'Order not found', // ORDER_NOT_FOUND
  11135: 'API key not found', // API_KEY_NOT_FOUND
  11140: 'Checkout not found', // CHECKOUT_NOT_FOUND
  11141: 'This payment provider is not set up for the project', // PAYMENT_PROVIDER_NOT_FOUND
  11201: 'An admin account with this username already exists', // AUTHOR_USERNAME_TAKEN
  11202: 'A version equal to this one already exists', // VERSION_EXISTS
  11203: 'The project already has a variable with this name', // VARIABLE_NAME_TAKEN
  11204: 'This site is already authorized for the project', // SITE_EXISTS
  11205: "This value is already on the project's blacklist", // BLACKLIST_ENTRY_EXISTS
  11206: 'This Idempotency-Key was already used for a different request', // IDEMPOTENCY_KEY_REUSED
  11207: "Connect is opened by the platform; the project's switch applies only in the self_service mode", // CONNECT_NOT_SELF_SERVICE
  11208: 'The project already has a card type with this name', // CARD_TYPE_NAME_TAKEN
  11209: 'Cards or batches were made from this card type; disable it instead of deleting it', // CARD_TYPE_IN_USE
  11210: 'The card type is disabled; enable it to make cards from it', // CARD_TYPE_DISABLED
  11220: 'Two-factor sign-in is already on for this account', // TWO_FACTOR_ALREADY_ENABLED
  11221: 'Two-factor sign-in is not on for this account', // TWO_FACTOR_NOT_ENABLED
  11301: 'The balance is too small for this; nothing was changed', // INSUFFICIENT_BALANCE
  11302: 'This order_id was already used for a different order', // ORDER_CONFLICT
  11303: 'Not enough unsold cards of this type are left', // OUT_OF_STOCK
  11304: 'This payment provider is not enabled for the program', // PAYMENT_PROVIDER_NOT_ENABLED
  11305: 'The service has no PUBLIC_URL set, so it takes no payments', // PUBLIC_URL_NOT_SET
  11306: 'This card type is not for sale', // CARD_TYPE_NOT_FOR_SALE
  11307: 'The payment gateway is unavailable; try again later', // PAYMENT_GATEWAY_UNAVAILABLE
  20001: 'The card key is invalid', // CARD_INVALID
  20002: 'The card key has expired', // CARD_EXPIRED
  20003: 'The card key is banned', // CARD_BANNED
  20004: 'The card is already bound to the maximum number of devices', // DEVICE_LIMIT_REACHED
  20005: 'Unbinding is not possible for this card and device', // UNBIND_REFUSED
  20006: 'The card has no uses left', // CARD_NO_USES_LEFT
  20007: 'Every seat of this card is in use', // SEATS_FULL
  20008: 'This top-up is not possible', // TOPUP_REFUSED
  20009: 'Offline licences are switched off for this program', // CHECKOUT_DISABLED
  20010: 'This device is not bound to the card', // DEVICE_NOT_BOUND
  20011: 'This device has already used its trial', // TRIAL_USED
  30001: 'This username is already taken', // USERNAME_TAKEN
  30002: 'Wrong username or password', // BAD_CREDENTIALS
  30003: 'This user is banned', // USER_BANNED
  30004: 'This account is bound to another machine', // MACHINE_MISMATCH
  30101: 'The session is invalid; log in again', // SESSION_INVALID
  30102: 'This token belongs to another session type', // SESSION_TYPE_MISMATCH
  40001: 'This site is not authorized', // SITE_NOT_AUTHORIZED
  40002: 'This device, address or domain is blacklisted', // BLACKLISTED
  40003: 'This IP is not bound to the program', // IP_NOT_BOUND
  50000: 'System error; keep the request ID for the administrator', // SYSTEM_ERROR
};

export const catalogZhCN: Readonly<Record<number, string>> = {
  10001: '请求格式不正确', // BAD_REQUEST
  10002: '此路径不支持该请求方法', // METHOD_NOT_ALLOWED
  10003: '此协议不接受 data 密文', // CIPHERTEXT_NOT_ALLOWED
  10004: '必须以明文字段提供 app（公开的程序 ID）', // APP_REQUIRED
  10005: '请使用公开的程序 ID，而不是内部项目键', // INTERNAL_KEY_NOT_ACCEPTED
  10006: '未找到', // NOT_FOUND
  10007: '不支持的内容类型', // UNSUPPORTED_MEDIA_TYPE
  10008: '请求体过大', // PAYLOAD_TOO_LARGE
  10009: '下载地址无效或已过期，请重新获取', // DOWNLOAD_ADDRESS_INVALID
  10010: '此接口需要 HTTPS，明文 HTTP 请求被拒绝', // HTTPS_REQUIRED
  10101: '签名无效', // SIGNATURE_INVALID
  10102: '时间戳超出允许的时间窗口', // TIMESTAMP_OUT_OF_WINDOW
  10103: '此随机数（nonce）已被使用', // NONCE_REPLAYED
  10201: '程序不存在', // PROGRAM_NOT_FOUND
  10202: '此程序已停用', // PROGRAM_DISABLED
  10203: '此程序的作者已被停用', // AUTHOR_DISABLED
  10204: '此程序的验证开关已关闭', // VERIFICATION_SWITCH_OFF
  10205: '此程序未开通标准 API 基础套餐', // PACKAGE_NOT_ENABLED
  10206: '此程序未获授权使用该接口', // INTERFACE_NOT_AUTHORIZED
  10207: '该接口已在平台上关闭', // INTERFACE_DISABLED
  10208: '此程序未开通 Connect', // CONNECT_NOT_ENABLED
  10301: '该接口今日配额已用完', // QUOTA_EXCEEDED
  10302: '请求过于频繁，请稍后再试', // RATE_LIMITED
  11001: '需要登录', // UNAUTHENTICATED
  11002: '你的角色无权执行此操作', // FORBIDDEN
  11003: '与已有资源冲突', // CONFLICT
  11004: '此管理账号已停用', // ACCOUNT_DISABLED
  11005: '文件超过上传大小限制', // FILE_TOO_LARGE
  11006: '卡密导入有问题，未导入任何卡密', // CARD_IMPORT_INVALID
  11007: '此操作需要一个新的两步验证码（X-Svc-2fa-Code）', // TWO_FACTOR_REQUIRED
  11008: '两步验证码错误、已过期或已被使用', // TWO_FACTOR_CODE_INVALID
  11009: '平台要求两步验证登录：请先完成设置', // TWO_FACTOR_ENROLMENT_REQUIRED
  11010: 'Webhook 地址不是本平台允许调用的公网 HTTP(S) 地址', // WEBHOOK_TARGET_REFUSED
  11011: '代理最多三级', // AGENT_LEVELS_EXCEEDED
  11012: '下级代理的项目、折扣和权限不能超过上级', // AGENT_SCOPE_EXCEEDED
  11015: '此 API 密钥没有该接口所需的权限范围', // API_KEY_SCOPE_MISSING
  11016: '此 API 密钥不允许从该地址使用', // API_KEY_ADDRESS_REFUSED
  11017: '该接口需要登录的账号，不接受 API 密钥', // API_KEY_NOT_ACCEPTED
  11101: '项目不存在', // PROJECT_NOT_FOUND
  11102: '作者不存在', // AUTHOR_NOT_FOUND
  11103: '卡密不存在', // CARD_NOT_FOUND
  11104: '此设备未绑定到该卡密', // CARD_DEVICE_NOT_FOUND
  11105: '程序用户不存在', // APP_USER_NOT_FOUND
  11106: '公告不存在', // ANNOUNCEMENT_NOT_FOUND
  11107: '版本不存在', // VERSION_NOT_FOUND
  11108: '文件不存在', // FILE_NOT_FOUND
  11109: '站点不存在', // SITE_NOT_FOUND
  11110: '黑名单条目不存在', // BLACKLIST_ENTRY_NOT_FOUND
  11111: '变量不存在', // VARIABLE_NOT_FOUND
  11112: '没有这个名称的接口', // INTERFACE_NOT_FOUND
  11113: '没有这个名称的密钥', // SECRET_NOT_FOUND
  11114: '项目中没有匹配的卡密，未做任何更改', // MATCHING_CARDS_NOT_FOUND
  11115: '卡类不存在', // CARD_TYPE_NOT_FOUND
  11120: 'Webhook 端点不存在', // WEBHOOK_NOT_FOUND
  11121: 'Webhook 投递记录不存在', // WEBHOOK_DELIVERY_NOT_FOUND
  11125: '邮件不存在', // MAIL_NOT_FOUND
  11130: '代理不存在', // AGENT_NOT_FOUND
  11131: '订单不存在', // ORDER_NOT_FOUND
  11135: 'API 密钥不存在', // API_KEY_NOT_FOUND
  11140: '结账单不存在', // CHECKOUT_NOT_FOUND
  11141: '该项目未设置此支付方式', // PAYMENT_PROVIDER_NOT_FOUND
  11201: '已存在同名的管理账号', // AUTHOR_USERNAME_TAKEN
  11202: '已存在相同的版本', // VERSION_EXISTS
  11203: '项目中已有同名变量', // VARIABLE_NAME_TAKEN
  11204: '此站点已为该项目授权', // SITE_EXISTS
  11205: '此值已在项目的黑名单中', // BLACKLIST_ENTRY_EXISTS
  11206: '此 Idempotency-Key 已用于另一个不同的请求', // IDEMPOTENCY_KEY_REUSED
  11207: 'Connect 由平台开通；项目开关仅在“自助开通”方式下有效', // CONNECT_NOT_SELF_SERVICE
  11208: '项目中已有同名卡类', // CARD_TYPE_NAME_TAKEN
  11209: '已有卡密或批次使用此卡类；请停用而不是删除', // CARD_TYPE_IN_USE
  11210: '卡类已停用；启用后才能用它生成卡密', // CARD_TYPE_DISABLED
  11220: '此账号已开启两步验证', // TWO_FACTOR_ALREADY_ENABLED
  11221: '此账号未开启两步验证', // TWO_FACTOR_NOT_ENABLED
  11301: '余额不足，未做任何更改', // INSUFFICIENT_BALANCE
  11302: '此 order_id 已用于另一笔订单', // ORDER_CONFLICT
  11303: '此卡类的库存卡不足', // OUT_OF_STOCK
  11304: '该程序未启用此支付方式', // PAYMENT_PROVIDER_NOT_ENABLED
  11305: '服务未设置 PUBLIC_URL，暂不收款', // PUBLIC_URL_NOT_SET
  11306: '此卡类不在售', // CARD_TYPE_NOT_FOR_SALE
  11307: '支付网关暂不可用，请稍后再试', // PAYMENT_GATEWAY_UNAVAILABLE
  20001: '卡密无效', // CARD_INVALID
  20002: '卡密已过期', // CARD_EXPIRED
  20003: '卡密已被封禁', // CARD_BANNED
  20004: '此卡密绑定的设备数已达上限', // DEVICE_LIMIT_REACHED
  20005: '此卡密和设备无法解绑', // UNBIND_REFUSED
  20006: '此卡密已没有剩余次数', // CARD_NO_USES_LEFT
  20007: '此卡密的席位已全部占用', // SEATS_FULL
  20008: '无法进行此次充值', // TOPUP_REFUSED
  20009: '此程序已关闭离线授权', // CHECKOUT_DISABLED
  20010: '此设备未绑定到该卡密', // DEVICE_NOT_BOUND
  20011: '此设备已用过试用', // TRIAL_USED
  30001: '用户名已被占用', // USERNAME_TAKEN
  30002: '用户名或密码错误', // BAD_CREDENTIALS
  30003: '此用户已被封禁', // USER_BANNED
  30004: '此账号已绑定到另一台机器', // MACHINE_MISMATCH
  30101: '会话无效，请重新登录', // SESSION_INVALID
  30102: '此令牌属于另一种会话类型', // SESSION_TYPE_MISMATCH
  40001: '此站点未获授权', // SITE_NOT_AUTHORIZED
  40002: '此设备、地址或域名已被列入黑名单', // BLACKLISTED
  40003: '此 IP 未绑定到该程序', // IP_NOT_BOUND
  50000: '系统错误，请保留请求 ID 并联系管理员', // SYSTEM_ERROR
};
