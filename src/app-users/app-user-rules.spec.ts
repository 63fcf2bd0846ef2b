import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { USERNAME_PATTERN, usernameKey } from './app-user-rules';
import { AppUserCredentialsDto } from './app-users.dto';

function problems(body: Record<string, unknown>): string[] {
  return validateSync(
    plainToInstance(AppUserCredentialsDto, { app: '12345678', username: 'alice', password: 'secret', machine_id: 'm', ...body }),
  ).map((e) => e.property);
}

describe('program-user field rules', () => {
  it('usernames are 3-32 of [A-Za-z0-9_.-]', () => {
    for (const ok of ['abc', 'A.b-c_9', 'x'.repeat(32)]) expect(USERNAME_PATTERN.test(ok)).toBe(true);
    for (const bad of ['ab', 'x'.repeat(33), 'a b', 'a@b', 'usér', '', 'abc\n']) expect(USERNAME_PATTERN.test(bad)).toBe(false);
  });

  it('compares usernames ignoring case', () => {
    expect(usernameKey('Alice.Smith')).toBe(usernameKey('alice.SMITH'));
  });

  it('validates username, password (6-128) and machine_id (1-128), naming the field', () => {
    expect(problems({})).toEqual([]);
    expect(problems({ username: 'ab' })).toEqual(['username']);
    expect(problems({ password: '12345' })).toEqual(['password']);
    expect(problems({ password: 'x'.repeat(129) })).toEqual(['password']);
    expect(problems({ password: 'x'.repeat(128) })).toEqual([]);
    expect(problems({ password: 123456 })).toEqual(['password']);
    expect(problems({ machine_id: '' })).toEqual(['machine_id']);
    expect(problems({ machine_id: 'm'.repeat(129) })).toEqual(['machine_id']);
    expect(problems({ username: undefined, password: undefined })).toEqual(['username', 'password']);
  });

  it('never puts the password value in a validation message', () => {
    const errors = validateSync(
      plainToInstance(AppUserCredentialsDto, { app: '1', username: 'alice', password: 'Sec1', machine_id: 'm' }),
    );
    expect(JSON.stringify(errors.map((e) => e.constraints))).not.toContain('Sec1');
  });
});
