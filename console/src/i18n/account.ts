/** Texts of the account page: the signed-in account's own password (en.ts and zh-CN.ts include them). */
export const accountEn = {
  menu: 'Account',
  title: 'Account',
  account: 'Account',
  passwordTitle: 'Change your password',
  passwordHelp:
    'Your other sessions (other browsers and devices signed in as you) end when it changes; this one stays signed in. Your API keys keep working. With two-factor sign-in on, a fresh code is asked for too.',
  current: 'Current password',
  next: 'New password',
  repeat: 'Repeat the new password',
  submit: 'Change password',
  changed: 'Password changed. Your other sessions have ended.',
  rules: 'At least 8 characters (at most 128), not the current password',
  mismatch: 'The two new passwords differ',
  same: 'The new password must differ from the current one',
  /** Refusals in this form's words (the catalog's 11001 speaks of signing in). */
  failures: {
    11001: 'The current password is wrong',
    10302: 'Too many attempts: wait a minute before trying again',
  },
};

export const accountZhCN: typeof accountEn = {
  menu: '账户',
  title: '账户',
  account: '账号',
  passwordTitle: '修改密码',
  passwordHelp:
    '修改后，你的其他会话（以你的身份登录的其他浏览器和设备）将结束；当前会话保持登录。你的 API 密钥继续有效。开启两步验证时，还需要输入一个新的验证码。',
  current: '当前密码',
  next: '新密码',
  repeat: '再次输入新密码',
  submit: '修改密码',
  changed: '密码已修改，你的其他会话已结束。',
  rules: '至少 8 个字符（最多 128 个），且不能与当前密码相同',
  mismatch: '两次输入的新密码不一致',
  same: '新密码不能与当前密码相同',
  failures: {
    11001: '当前密码不正确',
    10302: '尝试次数过多：请等待一分钟后再试',
  },
};
