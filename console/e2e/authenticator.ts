import * as OTPAuth from 'otpauth';

/**
 * An authenticator app for the test: the service takes each 30-second step once and only later
 * steps than the last one it took, with one step of drift either way. So the first code is of the
 * step before the current one (while at least 15 s of the current step remain, time enough for the
 * page to send it), then each next step in turn: three codes without waiting for the clock. A
 * fourth, or a step the clock has not come within one of yet, waits for it.
 */
export function authenticator(secret: string) {
  const totp = new OTPAuth.TOTP({ secret });
  let last = 0;
  return {
    async code(): Promise<string> {
      for (;;) {
        const now = Date.now();
        const current = Math.floor(now / 30_000);
        const earliest = (current + 1) * 30_000 - now >= 15_000 ? current - 1 : current;
        const step = Math.max(last + 1, earliest);
        if (step <= current + 1) {
          last = step;
          return totp.generate({ timestamp: step * 30_000 });
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    },
  };
}
