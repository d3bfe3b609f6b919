import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compactingCollection, releaseMemoryWhenIdle } from '../src/http/idle-memory.ts';

const MB = 1024 * 1024;

describe('releaseMemoryWhenIdle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** `youngGeneration`: the young generation's size V8 reports after each collection (shrunk: 1 MB). */
  async function appWith(collect: () => void, youngGeneration: () => number = () => 1 * MB) {
    const app = Fastify();
    app.get('/ping', async () => 'pong');
    const idle = releaseMemoryWhenIdle(app, collect, youngGeneration);
    await app.ready();
    return { app, idle };
  }

  it('collects once after start-up at the first look that saw no request, then not again while nothing happens', async () => {
    const collect = vi.fn();
    const { app, idle } = await appWith(collect);
    await vi.advanceTimersByTimeAsync(4_999);
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
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collect).toHaveBeenCalledTimes(1);
    for (let second = 0; second < 30; second += 1) {
      await app.inject({ url: '/ping' });
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(collect).toHaveBeenCalledTimes(1);
    // The first look after the traffic sees new requests; the next one, 5–10 s after the last, collects.
    await vi.advanceTimersByTimeAsync(4_000);
    expect(collect).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collect).toHaveBeenCalledTimes(2);
    idle.stop();
    await app.close();
  });

  it('collects again a look (5 s) later while V8 has not shrunk the young generation', async () => {
    const sizes = [64 * MB, 64 * MB, 1 * MB];
    const collect = vi.fn();
    const { app, idle } = await appWith(collect, () => sizes[collect.mock.calls.length - 1] ?? 1 * MB);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collect).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collect).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collect).toHaveBeenCalledTimes(3);
    // Shrunk: nothing more until requests come and go.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(collect).toHaveBeenCalledTimes(3);
    idle.stop();
    await app.close();
  });

  it('collects again when work without requests grows the young generation after it was given back', async () => {
    let young = 1 * MB;
    const collect = vi.fn(() => {
      young = 1 * MB;
    });
    const { app, idle } = await appWith(collect, () => young);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collect).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(collect).toHaveBeenCalledTimes(1);
    // A job after start-up (no request) fills the young generation: the next look gives it back.
    young = 64 * MB;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collect).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(collect).toHaveBeenCalledTimes(2);
    idle.stop();
    await app.close();
  });

  it('gives up after four collections in one quiet spell when the young generation stays large', async () => {
    const collect = vi.fn();
    const { app, idle } = await appWith(collect, () => 64 * MB);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(collect).toHaveBeenCalledTimes(4);
    // The next quiet spell after traffic tries again.
    await app.inject({ url: '/ping' });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(collect).toHaveBeenCalledTimes(8);
    idle.stop();
    await app.close();
  });
});

describe('compactingCollection', () => {
  it('runs the collection with compaction of every page turned on, and off again after', () => {
    const flags: string[] = [];
    const gc = () => {
      flags.push('gc');
    };
    compactingCollection(gc, (flag) => flags.push(flag))?.();
    expect(flags).toEqual(['--compact-on-every-full-gc', 'gc', '--no-compact-on-every-full-gc']);
  });

  it('turns compaction off again when the collection throws', () => {
    const flags: string[] = [];
    const collect = compactingCollection(
      () => {
        throw new Error('no');
      },
      (flag) => flags.push(flag),
    );
    expect(() => collect?.()).toThrow('no');
    expect(flags.at(-1)).toBe('--no-compact-on-every-full-gc');
  });

  it('is nothing without Node’s gc (started without --expose-gc)', () => {
    expect(compactingCollection(undefined)).toBeUndefined();
  });
});
