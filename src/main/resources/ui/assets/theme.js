// Applies a theme chosen with the toggle (localStorage "vfps-theme": "dark" or "light");
// without one, the page follows the system's prefers-color-scheme through CSS.
(function () {
  try {
    var theme = localStorage.getItem('vfps-theme');
    if (theme === 'dark' || theme === 'light') {
      document.documentElement.dataset.theme = theme;
    }
  } catch (e) {
    // storage may be off; the system setting applies
  }
})();
