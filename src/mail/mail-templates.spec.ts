import { escapeHtml, renderMail } from './mail-templates';

describe('renderMail', () => {
  const delivered = {
    program_name: 'Ace <script>alert("x")</script> & "Co"',
    card_type_name: "Month <b>'Pro'</b>",
    days: 30,
    codes: ['VIP-AAAA', 'VIP-<BBBB>'],
  };

  it('escapes every name and code in the HTML, and keeps them as written in the text', () => {
    const mail = renderMail('cards_delivered', delivered, 'UTC');
    expect(mail.html).not.toMatch(/<script>|<b>|<BBBB>/);
    expect(mail.html).toContain('Ace &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#34;Co&#34;');
    expect(mail.html).toContain('Month &#60;b&#62;&#39;Pro&#39;&#60;/b&#62;');
    expect(mail.html).toContain('VIP-&#60;BBBB&#62;');
    expect(mail.text).toContain(delivered.program_name);
    expect(mail.text).toContain('VIP-<BBBB>');
  });

  it('says it in Chinese, then in English: the program, the type and its days, each code in both', () => {
    const mail = renderMail('cards_delivered', delivered, 'UTC');
    const [zh, en] = mail.text.split('----------');
    expect(zh).toContain(`感谢购买 ${delivered.program_name}。`);
    expect(zh).toContain("卡类：Month <b>'Pro'</b>（30 天），共 2 张：");
    expect(en).toContain("Card type: Month <b>'Pro'</b> (30 days), 2 cards:");
    for (const part of [zh, en]) for (const code of delivered.codes) expect(part).toContain(code);
    expect(renderMail('cards_delivered', { ...delivered, days: null, codes: ['X'] }, 'UTC').text).toMatch(
      /永久[\s\S]*permanent\), 1 card:/,
    );
  });

  it('keeps the subject on one line whatever the program is called', () => {
    const mail = renderMail('cards_delivered', { ...delivered, program_name: 'Evil\r\nBcc: all@example.com' }, 'UTC');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toBe('【Evil Bcc: all@example.com】您的卡密 / Your licence keys');
  });

  it("gives the reminder's expiry in the service's time zone, naming it", () => {
    const mail = renderMail(
      'card_expiring',
      { program_name: 'Ace & Co', card_code: 'VIP-AAAA', expires_at: '2026-03-01T16:30:00.000Z' },
      'Asia/Shanghai',
    );
    expect(mail.text).toContain('卡密 VIP-AAAA 将于 2026-03-02 00:30:00 (Asia/Shanghai) 到期');
    expect(mail.text).toContain('licence key VIP-AAAA expires on 2026-03-02 00:30:00 (Asia/Shanghai).');
    expect(mail.html).toContain('Ace &#38; Co');
    expect(mail.html).toContain('<code>VIP-AAAA</code>');
  });

  it('escapes the five characters HTML gives a meaning', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  });
});
