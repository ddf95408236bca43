import { describe, expect, it } from 'vitest';
import { renderMail, withShopFacts } from './mail-layout.ts';

const FACTS = {
  companyName: '山嵐茶事有限公司',
  taxId: '87119873',
  address: '南投縣鹿谷鄉興產路 87 號',
  phone: '049-275-1987',
  lineUrl: 'https://lin.ee/shanlantea',
  facebookUrl: '',
  marks: ['VISA', '7-ELEVEN'],
};

describe('the shop facts in a mail footer', () => {
  const mail = renderMail({ title: '測試', paragraphs: ['內文 <b>不是標籤</b>'] });

  it('renders the brand’s facts until delivery puts the owner’s in', () => {
    expect(mail.html).toContain('山嵐茶事・南投縣鹿谷鄉興產路 87 號');
    expect(mail.html).not.toContain('統一編號');
    const sent = withShopFacts(mail, FACTS);
    expect(sent.html).toContain('山嵐茶事有限公司・統一編號 87119873・南投縣鹿谷鄉興產路 87 號');
    expect(sent.html).toContain('<a href="https://lin.ee/shanlantea"');
    expect(sent.html).not.toContain('Facebook');
    expect(sent.html).toContain('付款與配送：VISA・7-ELEVEN');
    expect(sent.text).toContain('LINE 官方帳號：https://lin.ee/shanlantea');
    expect(sent.text.startsWith(mail.text.slice(0, mail.text.indexOf('—— 店家資訊 ——')))).toBe(true);
    expect(sent.html).toContain('內文 &lt;b&gt;不是標籤&lt;/b&gt;');
  });

  it('escapes the owner’s words and leaves a mail without the marks alone', () => {
    const sent = withShopFacts(mail, { ...FACTS, companyName: '<script>x</script>' });
    expect(sent.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    const plain = { html: '<p>hi</p>', text: 'hi' };
    expect(withShopFacts(plain, FACTS)).toBe(plain);
  });
});
