import { PreparedStatements } from '../database/prepared-statements';
import { PendingLogin, PendingLoginWriter } from './pending-login-writer';

class Writer extends PendingLoginWriter {
  constructor(rows: jest.Mock) {
    super({ rows } as unknown as PreparedStatements, { name: 'login_test_v1', text: 'SELECT 1' });
  }
}

const login: PendingLogin = {
  projectId: '0b5c2c1e-3f7d-4a5e-9d8c-6b1a2f3e4d5c',
  cardKey: 'CARD-1',
  machine: 'm-1',
  seated: false,
  log: {
    cardCode: 'CARD-1',
    machineCode: 'm-1',
    ip: '203.0.113.7',
    family: 'sdk',
    interface: 'card_login',
    resultCode: 0,
    requestId: 'r-1',
    tokenHash: 'h',
  },
};
const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('a one-statement login path when PostgreSQL breaks a deadlock', () => {
  it('runs the statement again (the failed one changed nothing), and the login gets its card', async () => {
    const rows = jest
      .fn()
      .mockRejectedValueOnce(deadlock())
      .mockResolvedValueOnce([{ ord: 1, id: 7 }]);
    await expect(new Writer(rows).write(login)).resolves.toEqual({ ord: 1, id: 7 });
    expect(rows).toHaveBeenCalledTimes(2);
  });

  it('answers the fault after three deadlocks in a row, and any other failure at once', async () => {
    const always = jest.fn().mockImplementation(() => Promise.reject(deadlock()));
    await expect(new Writer(always).write(login)).rejects.toMatchObject({ code: '40P01' });
    expect(always).toHaveBeenCalledTimes(3);
    const other = jest.fn().mockRejectedValue(Object.assign(new Error('relation "cards" does not exist'), { code: '42P01' }));
    await expect(new Writer(other).write(login)).rejects.toMatchObject({ code: '42P01' });
    expect(other).toHaveBeenCalledTimes(1);
  });
});
