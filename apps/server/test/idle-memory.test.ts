import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { releaseMemoryWhenIdle } from '../src/http/idle-memory.ts';

describe('releaseMemoryWhenIdle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function appWith(collect: () => void) {
    const app = Fastify();
    app.get('/ping', async () => 'pong');
    const idle = releaseMemoryWhenIdle(app, collect);
    await app.ready();
    return { app, idle };
  }

  it('collects once after start-up and 10 s of quiet, then not again while nothing happens', async () => {
    const collect = vi.fn();
    const { app, idle } = await appWith(collect);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(collect).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(collect).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    idle.stop();
    await app.close();
  });

  it('waits while requests keep arriving, and collects again after the next quiet spell', async () => {
    const collect = vi.fn();
    const { app, idle } = await appWith(collect);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(collect).toHaveBeenCalledTimes(1);
    for (let second = 0; second < 30; second += 1) {
      await app.inject({ url: '/ping' });
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(collect).toHaveBeenCalledTimes(1);
    // The first look after the traffic sees new requests; two quiet looks later, it collects.
    await vi.advanceTimersByTimeAsync(15_000);
    expect(collect).toHaveBeenCalledTimes(2);
    idle.stop();
    await app.close();
  });
});
