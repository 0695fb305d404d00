import { useState } from 'preact/hooks';

/** What the visitor chose: the system's scheme, or one of the two. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'chainlens-theme';
const DARK = '(prefers-color-scheme: dark)';

function stored(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    // Storage refused (a privacy mode): the system's scheme.
    return 'system';
  }
}

function apply(choice: ThemeChoice): void {
  const dark = choice === 'dark' || (choice === 'system' && matchMedia(DARK).matches);
  document.documentElement.dataset['theme'] = dark ? 'dark' : 'light';
}

/**
 * Sets the page's scheme from the remembered choice before the first render, and follows the
 * system's while the choice is `system`.
 */
export function startTheme(): void {
  apply(stored());
  matchMedia(DARK).addEventListener('change', () => {
    if (stored() === 'system') apply('system');
  });
}

/** The visitor's choice, and a way to change and remember it. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState(stored);
  return [
    choice,
    (next) => {
      try {
        if (next === 'system') localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, next);
      } catch {
        // Not remembered, still applied.
      }
      setChoice(next);
      apply(next);
    },
  ];
}
