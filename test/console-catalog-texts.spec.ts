import { ERROR_CATALOG, ErrorCode } from '../src/core/errors/error-code';
import { catalogEn, catalogZhCN } from '../console/src/i18n/catalog';
import { importProblemsEn, importProblemsZhCN } from '../console/src/i18n/import-problems';
import { IMPORT_PROBLEM_REASONS, IMPORT_PROBLEM_TEXTS } from '../src/cards/admin/import-problems';

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

/**
 * The console shows each card-import problem in the chosen language by its reason
 * (src/cards/admin/import-problems.ts): a reason added there needs its texts in
 * console/src/i18n/import-problems.ts, and the English says what the service says.
 */
describe("the console's texts for card-import problems", () => {
  const sample = { min: 1, max: 9, line: 2, values: 'a, b', columns: 'code, note', ignored: 'id', fields: 3 };
  const interpolate = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, key: keyof typeof sample) => String(sample[key]));

  it.each(IMPORT_PROBLEM_REASONS)('has an English and a Chinese text for %s, the English as the service words it', (reason) => {
    const service = IMPORT_PROBLEM_TEXTS[reason](sample);
    expect(interpolate(importProblemsEn[reason])).toBe(service.charAt(0).toUpperCase() + service.slice(1));
    expect(importProblemsZhCN[reason]).toMatch(/\p{Script=Han}/u);
    expect([...importProblemsZhCN[reason].matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()).toEqual(
      [...importProblemsEn[reason].matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort(),
    );
  });

  it('has no text for a reason the service does not have', () => {
    expect(Object.keys(importProblemsEn).sort()).toEqual([...IMPORT_PROBLEM_REASONS].sort());
  });
});
