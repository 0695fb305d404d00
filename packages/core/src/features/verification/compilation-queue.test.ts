import { describe, expect, it } from 'vitest';
import { CompilerBusyError, RateLimitedError } from '../../errors/index.js';
import { CompilationQueue } from './compilation-queue.js';

/** Whether `promise` has settled, after everything already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('CompilationQueue', () => {
  it('starts up to maxConcurrent at once, queues up to maxQueued, and refuses the rest with 429', async () => {
    const queue = new CompilationQueue({ maxConcurrent: 2, maxQueued: 1, retryAfterSeconds: 60 });
    const first = queue.enter();
    const second = queue.enter();
    const third = queue.enter();
    expect(await settled(first.started)).toBe(true);
    expect(await settled(second.started)).toBe(true);
    expect(await settled(third.started)).toBe(false);
    let refusal: unknown;
    try {
      queue.enter();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(CompilerBusyError);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect((refusal as CompilerBusyError).message).toBe('Max rate limit reached');
    expect((refusal as CompilerBusyError).httpStatus).toBe(429);
    expect((refusal as CompilerBusyError).retryAfterSeconds).toBe(60);
  });

  it('passes a released place to the first in line, and frees it when nobody waits', async () => {
    const queue = new CompilationQueue({ maxConcurrent: 1, maxQueued: 2, retryAfterSeconds: 1 });
    const running = queue.enter();
    const next = queue.enter();
    const last = queue.enter();
    running.release();
    running.release();
    expect(await settled(next.started)).toBe(true);
    expect(await settled(last.started)).toBe(false);
    next.release();
    expect(await settled(last.started)).toBe(true);
    last.release();
    expect(await settled(queue.enter().started)).toBe(true);
  });

  it('lets a waiting ticket leave the queue without taking anyone’s place', async () => {
    const queue = new CompilationQueue({ maxConcurrent: 1, maxQueued: 1, retryAfterSeconds: 1 });
    const running = queue.enter();
    const leaving = queue.enter();
    leaving.release();
    const next = queue.enter();
    expect(await settled(next.started)).toBe(false);
    running.release();
    expect(await settled(next.started)).toBe(true);
    expect(() => queue.enter()).not.toThrow();
    expect(() => queue.enter()).toThrowError(CompilerBusyError);
  });
});
