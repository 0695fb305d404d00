import { useTheme, type ThemeChoice } from '../theme.js';

/** Light, dark, or as the system has it: the visitor's choice, remembered in this browser. */
export function ThemeSwitch() {
  const [choice, setChoice] = useTheme();
  return (
    <label class="theme">
      <span class="visually-hidden">Colour scheme</span>
      <select value={choice} onChange={(event) => setChoice(event.currentTarget.value as ThemeChoice)}>
        <option value="system">System theme</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
