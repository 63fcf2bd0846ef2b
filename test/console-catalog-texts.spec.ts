import { ERROR_CATALOG, ErrorCode } from '../src/core/errors/error-code';
import { catalogEn, catalogZhCN } from '../console/src/i18n/catalog';

const CODES = Object.keys(ERROR_CATALOG).map(Number) as ErrorCode[];

/**
 * The console shows each refusal in the chosen language by its catalog code (ErrorAlert): a code
 * added to the catalog needs its texts in console/src/i18n/catalog.ts, or the console would fall
 * back to the service's English message.
 */
describe("the console's texts for the error catalog", () => {
  it.each(CODES.map((code) => [code, ErrorCode[code]] as const))('has an English and a Chinese text for %i %s', (code) => {
    expect(catalogEn[code]?.trim()).toBeTruthy();
    expect(catalogZhCN[code]?.trim()).toBeTruthy();
    expect(catalogZhCN[code]).toMatch(/\p{Script=Han}/u);
  });

  it('uses the catalog message as the English text, so the console knows when the service said more', () => {
    expect(Object.fromEntries(CODES.map((code) => [code, catalogEn[code]]))).toEqual(
      Object.fromEntries(CODES.map((code) => [code, ERROR_CATALOG[code].message])),
    );
  });

  it('has no text for a code the catalog does not have', () => {
    const known = CODES.map(String).sort();
    expect(Object.keys(catalogEn).sort()).toEqual(known);
    expect(Object.keys(catalogZhCN).sort()).toEqual(known);
  });
});
