import { describe, expect, it } from 'vitest';
import * as core from './index.js';

describe('@chainlens/core public surface', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(core).sort()).toMatchSnapshot();
  });
});
