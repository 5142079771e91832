// Returns the visible text (and form controls) whose colour contrast is below WCAG 2 AA: 4.5:1,
// or 3:1 for large text. Disabled controls are exempt, as WCAG has it.
const parse = (color) => {
  const m = color.match(/rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? (?:\/ )?([\d.]+))?\)/);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
};
const luminance = ([r, g, b]) => {
  const f = (c) => {
    c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
};
const blend = (top, bottom) => {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
};
const background = (element) => {
  const layers = [];
  for (let e = element; e; e = e.parentElement) {
    const bg = parse(getComputedStyle(e).backgroundColor);
    if (bg && bg[3] > 0) {
      layers.push(bg);
      if (bg[3] === 1) break;
    }
  }
  let color = [255, 255, 255, 1];
  if (layers.length && layers[layers.length - 1][3] === 1) color = layers.pop();
  while (layers.length) color = blend(layers.pop(), color);
  return color;
};
const failures = [];
let checked = 0;
const check = (element, what) => {
  if (element.closest(':disabled, [aria-hidden="true"]') || !element.getClientRects().length) return;
  const style = getComputedStyle(element);
  if (style.visibility !== 'visible' || Number(style.opacity) === 0) return;
  const bg = background(element);
  const fg = blend(parse(style.color), bg);
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
  const ratio = (hi + 0.05) / (lo + 0.05);
  const size = parseFloat(style.fontSize);
  const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
  checked++;
  if (ratio < (large ? 3 : 4.5)) {
    failures.push(`${what.slice(0, 40)}: ${style.color} on rgb(${bg.slice(0, 3).join(', ')}) = ${ratio.toFixed(2)}`);
  }
};
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (node.textContent.trim() && node.parentElement && !node.parentElement.closest('script, noscript, option')) {
    check(node.parentElement, node.textContent.trim());
  }
}
for (const control of document.querySelectorAll('input:not([type=checkbox]):not([type=radio]), select, textarea')) {
  check(control, `#${control.id}`);
}
return {checked, failures};
