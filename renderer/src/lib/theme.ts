/**
 * Light and dark themes: 'system' follows prefers-color-scheme; the switch stores an explicit choice.
 * The CSS reads `data-theme` on <html>.
 */
import { ref, watch } from 'vue';

export type ThemeMode = 'system' | 'light' | 'dark';
const KEY = 'docloom.theme';

function saved(): ThemeMode {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

export const themeMode = ref<ThemeMode>(saved());

function apply(mode: ThemeMode): void {
  document.documentElement.dataset.theme = mode;
}

apply(themeMode.value);
watch(themeMode, (mode) => {
  apply(mode);
  try {
    if (mode === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, mode);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
});
