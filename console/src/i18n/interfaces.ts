/**
 * One line per client interface (src/platform/interface-names.ts): what a program calls it for, so an
 * admin switching or limiting one knows what stops. en.ts and zh-CN.ts include them.
 */
export const interfacesEn = {
  card_login: 'Card login: a program checks a card key on this device and gets a token (every family).',
  card_unbind: "Card unbind: the program frees a device of its card (the project's unbind rules apply).",
  card_heartbeat: 'Card heartbeat: keeps an SDK card session alive and re-checks the card.',
  user_register: 'Program-user registration from the program.',
  user_login: 'Program-user login (user name and password) from the program.',
  user_heartbeat: 'Program-user heartbeat: keeps an SDK user session alive.',
  announcement: 'The newest shown announcement, read by the program.',
  app_config: 'Remote variables the program reads at run time.',
  get_file: 'A signed download address of an uploaded file (legacy get_file).',
  app_profile: 'Program information (legacy appinfo): name, version, announcement.',
  version_check: 'The latest version and whether the update is forced.',
  state_check: 'Whether a card lets this device in now, without logging in (/api/check).',
  paycheck: 'Whether a card is activated and still valid (/api/paycheck).',
  licence_verify: 'Site licence verification (/api/verify) for the sites you authorize.',
  card_info: 'Card-holder portal: a holder sees their card and its devices.',
  card_topup: 'Card-holder portal: renew a card with another card.',
  card_trial: 'Trial: a device asks once, for ever, for a card of the trial type, bound to it.',
};

export const interfacesZhCN: typeof interfacesEn = {
  card_login: '卡密登录：程序在本设备上验证卡密并获得令牌（所有协议）。',
  card_unbind: '卡密解绑：程序解除卡密绑定的设备（按项目的解绑规则）。',
  card_heartbeat: '卡密心跳：保持 SDK 卡密会话在线，并重新检查卡密。',
  user_register: '程序内注册程序用户。',
  user_login: '程序用户登录（用户名和密码）。',
  user_heartbeat: '程序用户心跳：保持 SDK 用户会话在线。',
  announcement: '程序读取最新显示的公告。',
  app_config: '程序运行时读取的远程变量。',
  get_file: '已上传文件的签名下载地址（旧版 get_file）。',
  app_profile: '程序信息（旧版 appinfo）：名称、版本、公告。',
  version_check: '最新版本以及是否强制更新。',
  state_check: '不登录，查询卡密此刻是否允许本设备使用（/api/check）。',
  paycheck: '查询卡密是否已激活且仍然有效（/api/paycheck）。',
  licence_verify: '站点授权验证（/api/verify），针对你授权的站点。',
  card_info: '持卡人自助页：查看卡密及其设备。',
  card_topup: '持卡人自助页：用另一张卡密续费。',
  card_trial: '试用：每台设备可申请一次（永久仅一次）试用卡类型的卡密，并绑定该设备。',
};
