/** Texts of an agent's prices per card type, and of the agent's own sales page (en.ts and zh-CN.ts include them). */
export const agentPricesEn = {
  tab: 'Prices',
  help: "What each card type costs this agent. A price of its own replaces its discount for that type; without one it pays the list price less its discount. A sub-agent's price is at least its parent's, so the parent's commission is never negative.",
  empty: 'No card type agents may sell in its projects yet.',
  type: 'Card type',
  listPrice: 'List price',
  discountPrice: 'Less its discount',
  ownPrice: 'Own price',
  pays: 'It pays',
  disabled: 'disabled',
  set: 'Set price',
  change: 'Change',
  remove: 'Remove',
  form: {
    title: 'Price of {{type}} for {{name}}',
    label: 'Price',
    help: 'What one card costs this agent, instead of {{discounted}} (the list price less its discount).',
  },
  saved: 'Price of {{type}} saved',
  removed: '{{type}}: back to the discount',
  sales: {
    menu: 'Sales',
    title: 'Sales',
    help: 'Your sales of the last 30 days: cards sold, activated, and what they cost you, in all, per card type and per day.',
  },
};

export const agentPricesZhCN: typeof agentPricesEn = {
  tab: '价格',
  help: '该代理购买每种卡类的价格。为某卡类单独设置的价格取代该卡类的折扣；未设置时按标价减去其折扣计价。下级代理的价格不低于其上级，因此上级的佣金不会为负。',
  empty: '其项目中还没有允许代理销售的卡类。',
  type: '卡类',
  listPrice: '标价',
  discountPrice: '折扣价',
  ownPrice: '单独价格',
  pays: '实付',
  disabled: '已停用',
  set: '设置价格',
  change: '修改',
  remove: '移除',
  form: {
    title: '{{name}} 的 {{type}} 价格',
    label: '价格',
    help: '该代理每张卡的价格，取代 {{discounted}}（标价减去其折扣）。',
  },
  saved: '{{type}} 的价格已保存',
  removed: '{{type}}：已恢复按折扣计价',
  sales: {
    menu: '销售',
    title: '销售',
    help: '你近 30 天的销售：售出、已激活的卡密数及其花费，按总计、卡类和日期列出。',
  },
};
