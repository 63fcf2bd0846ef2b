/** RC4 keystream XOR (legacy clients only; symmetric: the same call encrypts and decrypts). */
export function rc4(key: Buffer, input: Buffer): Buffer {
  if (key.length === 0) throw new Error('RC4 needs a key');
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(input.length);
  for (let n = 0, i = 0, j = 0; n < input.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = input[n] ^ s[(s[i] + s[j]) & 0xff];
  }
  return out;
}
