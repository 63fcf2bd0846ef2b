/** Texts of the card list's actions on many cards (en.ts and zh-CN.ts include them). */
export const bulkEn = {
  title: 'Act on several cards',
  selected: 'The {{count}} selected',
  matching: 'All {{count}} the filters match',
  everything: 'All {{count}} cards of the project',
  action: 'Action',
  actions: { ban: 'Ban', unban: 'Unban', delete: 'Delete', extend: 'Extend validity', set_note: 'Set the note' },
  days: 'Days to add',
  note: 'Note (empty clears it)',
  apply: 'Apply',
  confirmTitle_one: '{{action}}: {{count}} card?',
  confirmTitle_other: '{{action}}: {{count}} cards?',
  confirmText: 'This applies to every card counted here, now. A ban ends their sessions; a deletion cannot be undone.',
  result: 'Matched: {{matched}}, changed: {{changed}}.',
  none: 'Select cards in the list, or act on everything the filters match.',
};

export const bulkZhCN: typeof bulkEn = {
  title: '批量操作',
  selected: '已选的 {{count}} 张',
  matching: '筛选结果的全部 {{count}} 张',
  everything: '项目的全部 {{count}} 张',
  action: '操作',
  actions: { ban: '封禁', unban: '解封', delete: '删除', extend: '延长有效期', set_note: '设置备注' },
  days: '增加天数',
  note: '备注（留空则清除）',
  apply: '执行',
  confirmTitle_one: '{{action}}：{{count}} 张卡密？',
  confirmTitle_other: '{{action}}：{{count}} 张卡密？',
  confirmText: '操作将立即作用于这里统计的每一张卡密。封禁会结束其会话；删除无法撤销。',
  result: '匹配 {{matched}} 张，变更 {{changed}} 张。',
  none: '在列表中选择卡密，或对筛选结果的全部卡密操作。',
};
