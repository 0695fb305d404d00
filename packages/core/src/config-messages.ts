import type { z } from 'zod';

/** A value as a config message quotes it (bigints and functions included). */
function shown(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Messages for zod's generic config issues that say what to set instead (`must be at least 1,
 * got 0`) where zod's own default would only say what went wrong. Issues with a message of their
 * own (refinements, custom checks) keep it.
 */
export const configIssueMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'too_small':
      return `must be at least ${String(issue.minimum)}, got ${shown(issue.input)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}, got ${shown(issue.input)}`;
    case 'invalid_type':
      return issue.input === undefined ? `is required (a ${issue.expected})` : `must be a ${issue.expected}, got ${shown(issue.input)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(shown).join(', ')}, got ${shown(issue.input)}`;
    case 'unrecognized_keys':
      return `${issue.keys.map((key) => JSON.stringify(key)).join(', ')} ${issue.keys.length === 1 ? 'is not an option' : 'are not options'}; check the spelling against the configuration reference in docs/embedding.md`;
    default:
      return undefined;
  }
};
