/** Texts of dates, time zones and durations (en.ts and zh-CN.ts include them). */
export const timeEn = {
  zone: 'Time zone',
  browserZone: 'this browser',
  amount: 'Amount',
  unit: 'Unit',
  units: { day: 'days', hour: 'hours', minute: 'minutes', second: 'seconds' },
  presets: 'Presets',
  off: 'Off',
  between: 'From {{min}} to {{max}}',
  noHeartbeat: 'none yet',
};

export const timeZhCN: typeof timeEn = {
  zone: '时区',
  browserZone: '本浏览器',
  amount: '数值',
  unit: '单位',
  units: { day: '天', hour: '小时', minute: '分钟', second: '秒' },
  presets: '常用值',
  off: '关闭',
  between: '范围：{{min}} 至 {{max}}',
  noHeartbeat: '尚无',
};
