import { attachmentDisposition, storedFileName } from './file-names';

describe('attachmentDisposition', () => {
  it('names a plain ASCII file as is', () => {
    expect(attachmentDisposition('setup-1.10.0.exe')).toBe('attachment; filename="setup-1.10.0.exe"');
  });

  it('keeps quotes and backslashes out of the quoted name', () => {
    expect(attachmentDisposition('a"b\\c.bin')).toBe(`attachment; filename="a_b_c.bin"; filename*=UTF-8''a%22b%5Cc.bin`);
  });

  it('sends other characters in RFC 5987 filename*, with an ASCII fallback', () => {
    expect(attachmentDisposition('更新 包.zip')).toBe(
      `attachment; filename="__ _.zip"; filename*=UTF-8''%E6%9B%B4%E6%96%B0%20%E5%8C%85.zip`,
    );
  });
});

describe('storedFileName', () => {
  it.each([
    ['app.bin', 'app.bin'],
    ['C:\\Users\\me\\app.bin', 'app.bin'],
    ['../../etc/passwd', 'passwd'],
    ['dir/', 'file'],
    ['..', 'file'],
    [undefined, 'file'],
    ['', 'file'],
    ['a\u0000b\nc.txt', 'abc.txt'],
    ['  spaced.txt  ', 'spaced.txt'],
  ])('%j → %j', (sent, kept) => {
    expect(storedFileName(sent)).toBe(kept);
  });

  it('keeps at most 255 characters', () => {
    expect(storedFileName('x'.repeat(300))).toHaveLength(255);
    expect(Array.from(storedFileName('文'.repeat(300)))).toHaveLength(255);
  });
});
