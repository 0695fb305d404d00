/**
 * The compiler worker's program: plain CommonJS run with `eval`, so it needs no file of its own in
 * any build (ESM, CJS, or the TypeScript sources under test). It loads one solc-js build, says
 * `ready` with the version it reports, then compiles standard-JSON inputs one at a time.
 *
 * Nothing outside the input is read or fetched: solc asks the import callback for every import and
 * every `sources[*].urls` entry it does not have, and the callback refuses them all. The build's
 * WebAssembly memory is capped by refusing `Memory.prototype.grow` beyond `maxMemoryBytes` (the
 * worker's `resourceLimits` cap only the JavaScript heap), so solc fails with `bad_alloc` instead of
 * taking the process's memory.
 *
 * Messages out: `{type: 'ready', version}`, `{type: 'output', output, outOfMemory}` (solc's JSON
 * text, and whether memory was refused on the way), `{type: 'failed', message, outOfMemory}`.
 */
export const SOLC_WORKER_SOURCE = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
(function main() {
  const { wrapperPath, soljsonPath, maxMemoryBytes } = workerData;
  // Emscripten prints its aborts; they are reported as errors instead of in the host's output.
  for (const method of ['log', 'info', 'warn', 'error']) console[method] = () => undefined;
  let refusedMemory = false;
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (pages) {
    if (this.buffer.byteLength + pages * 65536 > maxMemoryBytes) {
      refusedMemory = true;
      throw new RangeError('compiler memory limit reached');
    }
    return grow.call(this, pages);
  };
  const failed = (error) => ({ type: 'failed', message: String((error && error.message) || error), outOfMemory: refusedMemory });

  let solc;
  try {
    solc = require(wrapperPath)(require(soljsonPath));
  } catch (error) {
    parentPort.postMessage(failed(error));
    return;
  }
  parentPort.postMessage({ type: 'ready', version: solc.version() });

  const refuse = () => ({
    error: 'not among the submitted sources (ChainLens compiles only what was submitted: it reads no file and fetches no URL)',
  });
  parentPort.on('message', (input) => {
    refusedMemory = false;
    try {
      const output = solc.compile(input, { import: refuse });
      parentPort.postMessage({ type: 'output', output, outOfMemory: refusedMemory });
    } catch (error) {
      parentPort.postMessage(failed(error));
    }
  });
})();
`;
