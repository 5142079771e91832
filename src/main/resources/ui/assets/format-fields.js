// The create form's fields of the alphabet method's format (xFormat): the alphabet with gPAS's
// presets, the check digit, the groups, and a live example of a pseudonym with its capacity, redrawn
// as any setting changes.

import {
  ALPHABET_PRESETS,
  CHECK_DIGITS,
  DECIMAL_DIGITS,
  capacityText,
  checkDigitLabel,
  examplePseudonym,
  formatProblem,
  presetOf,
} from './alphabet.js';
import {h, replace, field} from './dom.js';

const CUSTOM = 'CUSTOM';
const DEFAULT_PRESET = ALPHABET_PRESETS[0];
const DEFAULT_CHECK_DIGIT = 'CHECK_DIGIT_DAMM';
const DEFAULT_DELIMITER = '-';
/** The longest pseudonym length: one draw per character the example may need. */
const MAX_LENGTH = 1024;

const CHECK_DIGIT_HINTS = {
  CHECK_DIGIT_UNSPECIFIED: 'None: a mistyped pseudonym is not caught, just not found.',
  CHECK_DIGIT_LUHN_MOD_N:
    'For any alphabet. It catches every single changed character when the alphabet has an even number of characters, about all but 1 in 2N with an odd number N; and most swaps of two neighbours.',
  CHECK_DIGIT_DAMM: 'Catches every single changed digit and every swap of two neighbours.',
  CHECK_DIGIT_VERHOEFF: 'Catches every single changed digit and every swap of two neighbours.',
  CHECK_DIGIT_X_GPAS_DAMM:
    "gPAS's Damm, for a namespace that takes over a gPAS domain: any alphabet of ten characters. It misses about 1 in 9 swaps of the last drawn character and the check digit.",
  CHECK_DIGIT_X_GPAS_VERHOEFF:
    "gPAS's Verhoeff, for a namespace that takes over a gPAS domain: any alphabet of ten characters. It misses about half the swaps of the last drawn character and the check digit.",
};

/**
 * The format's fieldset (id `format-fields`), hidden until shown. `settings()` gives the form's
 * {length, prefix, suffix} for the example; `changed()` is called after every redraw, so that the
 * form can update what depends on the format (the Length hint).
 */
export function formatFields(settings, changed) {
  const preset = h(
    'select',
    {id: 'alphabet-preset'},
    ALPHABET_PRESETS.map((p) => h('option', {value: p.name}, `${p.label} (${p.symbols})`)),
    h('option', {value: CUSTOM}, 'Custom'),
  );
  const alphabet = h('input', {id: 'alphabet', class: 'monospace', maxlength: 64, autocomplete: 'off', spellcheck: 'false', value: DEFAULT_PRESET.symbols});
  const checkDigit = h(
    'select',
    {id: 'check-digit'},
    CHECK_DIGITS.map((kind) => h('option', {value: kind.name}, kind.label)),
  );
  checkDigit.value = DEFAULT_CHECK_DIGIT;
  const groupSize = h('input', {id: 'group-size', type: 'number', min: 0, max: MAX_LENGTH, required: true, value: '0'});
  const delimiter = h('input', {id: 'group-delimiter', class: 'monospace', maxlength: 8, autocomplete: 'off', spellcheck: 'false', value: DEFAULT_DELIMITER});
  const checkDigitField = field('Check digit', checkDigit, ' ');
  const checkDigitHint = checkDigitField.querySelector('.hint');
  const example = h('output', {id: 'format-example', for: 'alphabet check-digit group-size group-delimiter length prefix suffix'});
  const note = h('p', {class: 'hint', id: 'format-example-note'});
  const capacity = h('p', {id: 'format-capacity'});
  const problem = h('p', {class: 'inline-error', id: 'format-problem', role: 'alert', hidden: true});
  // the same characters, picked anew only when the page is drawn, so that the example changes
  // with the settings and not at random
  const draws = crypto.getRandomValues(new Uint32Array(MAX_LENGTH));

  const format = () => {
    const size = Number(groupSize.value);
    return {
      alphabet: alphabet.value,
      checkDigit: checkDigit.value,
      groupSize: groupSize.value.trim() === '' ? NaN : size,
      groupDelimiter: size > 0 ? delimiter.value : '',
    };
  };

  /**
   * Damm and Verhoeff only for the ten digits, gPAS's variants for ten characters; a choice the
   * alphabet no longer allows falls back.
   */
  const offerCheckDigits = () => {
    const decimal = alphabet.value === DECIMAL_DIGITS;
    const ten = [...alphabet.value].length === 10;
    let fellBack = null;
    for (const option of checkDigit.options) {
      const kind = CHECK_DIGITS.find((k) => k.name === option.value);
      const tenOnly = Boolean(kind.tenCharacters) && !ten;
      option.disabled = (Boolean(kind.decimalOnly) && !decimal) || tenOnly;
      const only = tenOnly ? 'ten characters only' : 'the ten digits only';
      option.textContent = option.disabled ? `${kind.label} (${only})` : kind.label;
      if (option.disabled && option.selected) {
        fellBack = kind.label;
      }
    }
    if (fellBack) {
      checkDigit.value = 'CHECK_DIGIT_LUHN_MOD_N';
    }
    const tenDigits = decimal ? '' : ' Damm and Verhoeff work on the ten digits 0123456789 only.';
    const instead = fellBack ? `Luhn mod N is chosen, since ${fellBack} works on the ten digits only. ` : '';
    checkDigitHint.textContent = `${instead}${CHECK_DIGIT_HINTS[checkDigit.value]}${instead ? '' : tenDigits}`;
  };

  const redraw = () => {
    delimiter.disabled = !(Number(groupSize.value) > 0);
    const chosen = format();
    const found = formatProblem(chosen);
    const {length, prefix, suffix} = settings();
    const lengthOk = Number.isInteger(length) && length >= 1 && length <= MAX_LENGTH;
    problem.hidden = !found;
    problem.textContent = found ?? '';
    if (found || !lengthOk) {
      replace(example, '–');
      note.textContent = found ? '' : 'The example needs a length from 1 to 1024.';
    } else {
      const made = examplePseudonym(chosen, length, draws);
      const last = made.groups.length - 1;
      replace(
        example,
        h(
          'code',
          {},
          prefix ? h('span', {class: 'affix'}, prefix) : null,
          made.groups.map((group, i) => {
            const text = made.checkDigit && i === last ? group.slice(0, -1) : group;
            return [i > 0 ? h('span', {class: 'delimiter'}, chosen.groupDelimiter) : null, text];
          }),
          made.checkDigit ? h('span', {class: 'check-digit'}, made.checkDigit) : null,
          suffix ? h('span', {class: 'affix'}, suffix) : null,
        ),
      );
      note.textContent = made.checkDigit
        ? `The last character of the core, ${made.checkDigit}, is the ${checkDigitLabel(chosen.checkDigit)} check digit of the ${length} drawn before it.`
        : `${length} drawn characters, no check digit.`;
    }
    const size = [...alphabet.value].length;
    capacity.textContent =
      size >= 2 && lengthOk ? `Capacity: ${capacityText(size, length)} pseudonyms (${size} characters, ${length} drawn).` : '';
    changed();
  };

  preset.addEventListener('change', () => {
    if (preset.value === CUSTOM) {
      alphabet.focus();
    } else {
      alphabet.value = ALPHABET_PRESETS.find((p) => p.name === preset.value).symbols;
    }
    offerCheckDigits();
    redraw();
  });
  alphabet.addEventListener('input', () => {
    preset.value = presetOf(alphabet.value)?.name ?? CUSTOM;
    offerCheckDigits();
    redraw();
  });
  checkDigit.addEventListener('change', () => {
    offerCheckDigits();
    redraw();
  });
  groupSize.addEventListener('input', redraw);
  delimiter.addEventListener('input', redraw);

  const element = h(
    'fieldset',
    {class: 'format-fields', id: 'format-fields', hidden: true},
    h('legend', {}, 'Pseudonym format'),
    field('Alphabet', preset, "gPAS's ready sets, or Custom."),
    field('Characters', alphabet, 'In their order, which gives each its value for the check digit: 2 to 64 distinct, from ! to ~.'),
    checkDigitField,
    field('Group size', groupSize, 'Characters per group; 0 for none. The check digit counts in the last group.'),
    field('Group delimiter', delimiter, 'Between groups: 1 to 8 characters not in the alphabet. Lookups take a pseudonym with or without them.'),
    problem,
    h(
      'div',
      {class: 'format-example', id: 'format-example-area'},
      h('p', {class: 'example-label'}, h('label', {for: 'format-example'}, 'Example')),
      example,
      note,
      capacity,
    ),
  );
  offerCheckDigits();
  return {
    element,
    /** The format as the create request's xFormat takes it. */
    value: format,
    /** How many characters the format writes for the length, or null while its settings make none. */
    writtenLength(length) {
      if (formatProblem(format()) || !(length >= 1)) {
        return null;
      }
      return examplePseudonym(format(), length, draws).written.length;
    },
    /** Shows or hides the fieldset, and draws the example for the form's current settings. */
    show(visible) {
      element.hidden = !visible;
      element.disabled = !visible;
      if (visible) {
        redraw();
      }
    },
    redraw,
  };
}
