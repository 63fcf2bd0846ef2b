import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { machineCode, machineCodeFrom, rawMachineId } from '../src';
import vectors from '../vectors/signing-vectors.json';

/** The first non-empty Linux id file, as machineCode reads it, or undefined (a bare container). */
function linuxId(): string | undefined {
  for (const path of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      const id = readFileSync(path, 'utf8').trim();
      if (id) return id;
    } catch {
      // absent: try the next one
    }
  }
  return undefined;
}

describe('machine code', () => {
  for (const v of vectors.machine_code.cases) {
    it(`matches the shared vector: ${v.name}`, () => {
      assert.equal(machineCodeFrom(v.program_id, v.raw_id), v.code);
    });
  }

  it('differs per program and is 32 lowercase hex characters', () => {
    const a = machineCodeFrom('48213907', 'abc');
    assert.match(a, /^[0-9a-f]{32}$/);
    assert.notEqual(a, machineCodeFrom('48213908', 'abc'));
  });

  it('refuses an empty program id or raw id', () => {
    assert.throws(() => machineCodeFrom('', 'abc'), TypeError);
    assert.throws(() => machineCodeFrom('48213907', ' \n'), TypeError);
    assert.throws(() => machineCode(''), TypeError);
  });

  const id = process.platform === 'linux' ? linuxId() : undefined;
  it(
    'on Linux: the same code twice, the hash of /etc/machine-id',
    { skip: id === undefined && 'not Linux, or no machine-id file' },
    () => {
      const first = machineCode('48213907');
      assert.equal(machineCode('48213907'), first);
      assert.equal(first, machineCodeFrom('48213907', id ?? ''));
      assert.equal(rawMachineId(), id?.toLowerCase());
      assert.notEqual(machineCode('10000001'), first);
    },
  );
});
