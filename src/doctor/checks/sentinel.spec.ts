import { loadConfig } from '../../config/app-config';
import { checkSentinels } from './sentinel';

describe('checkSentinels', () => {
  it('fails, naming each sentinel and the master, when none answers', async () => {
    const config = loadConfig({ REDIS_SENTINELS: '127.0.0.1:1,127.0.0.1:2', REDIS_SENTINEL_MASTER: 'cards' });
    const [finding] = await checkSentinels(config);
    expect(finding).toMatchObject({
      check: 'sentinel',
      severity: 'fail',
      message: expect.stringMatching(
        /no sentinel names a primary for "cards": 127\.0\.0\.1:1 does not answer.*127\.0\.0\.1:2 does not answer/,
      ),
      fix: expect.stringContaining('REDIS_SENTINEL_MASTER'),
    });
  });
});
