import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { IsRsaPrivateKey, IsRsaPublicKey, pkcs8Pem, spkiPem } from './rsa-keys';

describe('RSA keys as people paste them', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateForms = {
    'PKCS#8 PEM': privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    'PKCS#1 PEM': privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
    'bare PKCS#8 base64': privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    'bare PKCS#1 base64, wrapped in lines': privateKey
      .export({ type: 'pkcs1', format: 'der' })
      .toString('base64')
      .replace(/(.{64})/g, '$1\n'),
  };
  const publicForms = {
    'SPKI PEM': publicKey.export({ type: 'spki', format: 'pem' }) as string,
    'PKCS#1 PEM': publicKey.export({ type: 'pkcs1', format: 'pem' }) as string,
    'bare SPKI base64': publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };

  it.each(Object.entries(privateForms))('takes a private key as %s, the same key as PKCS#8 PEM', (_, text) => {
    expect(new IsRsaPrivateKey().validate(text)).toBe(true);
    expect(pkcs8Pem(text)).toBe(privateForms['PKCS#8 PEM']);
  });

  it.each(Object.entries(publicForms))('takes a public key as %s, the same key as SPKI PEM', (_, text) => {
    expect(new IsRsaPublicKey().validate(text)).toBe(true);
    expect(spkiPem(text)).toBe(publicForms['SPKI PEM']);
  });

  it('refuses a private key where the public one goes (it would be shown in clear), in any form', () => {
    for (const text of Object.values(privateForms)) expect(new IsRsaPublicKey().validate(text)).toBe(false);
    expect(createPublicKey(privateForms['PKCS#8 PEM']).type).toBe('public'); // what Node alone would have accepted
  });

  it('refuses what is no RSA key of 2048 bits: a public key as the private one, a short key, an EC key, junk', () => {
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const refused = [
      publicForms['SPKI PEM'],
      short.export({ type: 'pkcs8', format: 'pem' }) as string,
      ec.export({ type: 'pkcs8', format: 'pem' }) as string,
      'MIIEvQIBADANBgkq',
      '',
      42,
    ];
    for (const value of refused) expect(new IsRsaPrivateKey().validate(value)).toBe(false);
    expect(
      new IsRsaPublicKey().validate(
        generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }),
      ),
    ).toBe(false);
  });
});
