// Applies the theme chosen with the toggle (localStorage "vfps-dark-mode": "1" dark, "0" light,
// as the .NET vfps keeps it) before the first paint; without a choice the page follows the
// system's prefers-color-scheme. The class "dark" on <html> says which one is showing.
(function () {
  var root = document.documentElement;
  var choice = null;
  try {
    choice = localStorage.getItem('vfps-dark-mode');
  } catch (e) {
    // storage may be off; the system setting applies
  }
  if (choice === '1' || choice === '0') {
    root.dataset.theme = choice === '1' ? 'dark' : 'light';
  }
  var dark = root.dataset.theme
    ? root.dataset.theme === 'dark'
    : window.matchMedia('(prefers-color-scheme: dark)').matches;
  root.classList.toggle('dark', dark);
})();
