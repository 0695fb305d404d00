export { DAY_MS, HOUR_MS, MINUTE_MS, windowAt, type Window } from './windows.js';
