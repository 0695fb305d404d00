import { describe, expect, it } from 'vitest';
import { composeRoles } from './compose-roles.js';

class Counter {
  protected count = 0;

  async hit(): Promise<number> {
    return ++this.count;
  }
}

class LoudCounter extends Counter {
  override async hit(): Promise<number> {
    return (await super.hit()) * 10;
  }

  async peek(): Promise<number> {
    return this.count;
  }
}

class Greeter {
  readonly greeting = 'hello';

  async greet(name: string): Promise<string> {
    return `${this.greeting} ${name}`;
  }
}

describe('composeRoles', () => {
  it('serves every part’s methods, each bound to its own part', async () => {
    const composed = composeRoles(new LoudCounter(), new Greeter());
    const { hit, greet } = composed;
    expect(await hit()).toBe(10);
    expect(await composed.peek()).toBe(1);
    expect(await greet('you')).toBe('hello you');
  });

  it('leaves fields out: only methods are served', () => {
    expect(Object.keys(composeRoles(new Greeter()))).toEqual(['greet']);
  });

  it('refuses a method two parts serve', () => {
    expect(() => composeRoles(new Counter(), new LoudCounter())).toThrow('composeRoles: two parts serve hit');
  });
});
