// Applies the saved (or OS) theme before first paint; keep in sync with src/lib/theme.ts.
// A file of its own, not an inline script: the content security policy allows no inline script.
/* global localStorage, matchMedia, document */
(function () {
  try {
    var t = localStorage.getItem('theme');
    if (t !== 'light' && t !== 'dark') t = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    if (t === 'dark') document.documentElement.classList.add('dark');
  } catch {
    // Storage or matchMedia unavailable (blocked storage): the page keeps the light theme.
  }
})();
