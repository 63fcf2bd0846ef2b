import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientErrorCode, ErrorCode as SdkErrorCode } from '../../../sdk/src';
import { ERROR_CATALOG, ErrorCode } from './error-code';

/** The official client (sdk/) carries its own copy of the catalog; it must be this one. */
describe('the official client error codes', () => {
  it('are the catalog, name for name and number for number', () => {
    const catalog = Object.fromEntries(Object.keys(ERROR_CATALOG).map((code) => [ErrorCode[Number(code)], Number(code)]));
    expect({ ...SdkErrorCode }).toEqual(catalog);
  });

  it('never reuse a catalog code, 0 or 1 for codes of its own', () => {
    const own: number[] = Object.values(ClientErrorCode);
    for (const code of own) expect(code in ERROR_CATALOG || code === 0 || code === 1).toBe(false);
  });
});

/** The Python client (clients/python) carries a copy too: `NAME = number` lines of its ErrorCode class. */
describe('the Python client error codes', () => {
  it('are the catalog, name for name and number for number', () => {
    const source = readFileSync(join(__dirname, '../../../clients/python/cardkey_client/errors.py'), 'utf8');
    const body = source.slice(
      source.indexOf('class ErrorCode'),
      source.indexOf('\nclass ', source.indexOf('class ErrorCode') + 1),
    );
    const python = Object.fromEntries([...body.matchAll(/^ {4}([A-Z_]+) = (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
    const catalog = Object.fromEntries(Object.keys(ERROR_CATALOG).map((code) => [ErrorCode[Number(code)], Number(code)]));
    expect(python).toEqual(catalog);
  });
});
