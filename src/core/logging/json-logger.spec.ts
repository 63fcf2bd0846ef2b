import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FRAMEWORK_START_CONTEXTS, JsonLogger, LogLevel } from './json-logger';

@Module({})
class EmptyModule {}

/** Starts and closes a Nest application context with a JsonLogger at `level`; gives the lines written. */
async function nestStartLines(level: LogLevel): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const app = await NestFactory.createApplicationContext(EmptyModule, {
    logger: new JsonLogger(level, (line) => lines.push(line)),
  });
  await app.close();
  return lines.map((line) => JSON.parse(line));
}

describe(JsonLogger.name, () => {
  it("writes Nest's start-up lines at debug, so an info log has none of them", async () => {
    expect(await nestStartLines('info')).toEqual([]);
    const debug = await nestStartLines('debug');
    // NestFactory says it starts, InstanceLoader that the module's dependencies are ready.
    expect(debug.map((line) => [line.level, line.context])).toEqual(
      expect.arrayContaining([
        ['debug', 'NestFactory'],
        ['debug', 'InstanceLoader'],
      ]),
    );
    expect(debug.every((line) => line.level === 'debug')).toBe(true);
  });

  it.each([...FRAMEWORK_START_CONTEXTS])('writes an info line of context %s at debug', (context) => {
    const lines: string[] = [];
    new JsonLogger('debug', (line) => lines.push(line)).log('Mapped {/x, GET} route', context);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'debug', msg: 'Mapped {/x, GET} route', context });
  });

  it('keeps info lines of other contexts, and warnings and errors of the framework, at their level', () => {
    const lines: string[] = [];
    const logger = new JsonLogger('info', (line) => lines.push(line));
    logger.log('bootstrap platform admin created', 'AdminAuthService');
    logger.warn('slow start', 'NestApplication');
    logger.error('cannot bind', 'stack trace', 'NestApplication');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'info', msg: 'bootstrap platform admin created', context: 'AdminAuthService' }),
      expect.objectContaining({ level: 'warn', msg: 'slow start', context: 'NestApplication' }),
      expect.objectContaining({ level: 'error', msg: 'cannot bind', context: 'NestApplication', stack: 'stack trace' }),
    ]);
  });
});
