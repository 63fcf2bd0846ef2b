/** Texts of two-factor sign-in: the second login step (en.ts and zh-CN.ts include them). */
export const twoFactorEn = {
  title: 'Two-factor sign-in',
  prompt: 'Enter the 6-digit code of your authenticator app, or one of your recovery codes.',
  code: 'Code',
  submit: 'Verify',
  back: 'Back',
};

export const twoFactorZhCN: typeof twoFactorEn = {
  title: '两步验证登录',
  prompt: '请输入身份验证器应用中的 6 位验证码，或一个恢复码。',
  code: '验证码',
  submit: '验证',
  back: '返回',
};
