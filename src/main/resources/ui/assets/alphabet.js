// The format of the alphabet method (PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET) in the
// browser: gPAS's ready alphabets, the check digits, the groups and the capacity, by the service's
// rules (the Java package org.vfps.alphabet), for the create form's live example. The service
// draws and checks the pseudonyms; this only shows what they will look like.

/** The ten decimal digits, the one alphabet Damm and Verhoeff work on. */
export const DECIMAL_DIGITS = '0123456789';

/** gPAS's alphabets (AlphabetPreset), in gPAS's order, which gives each character its value. */
export const ALPHABET_PRESETS = [
  {name: 'NUMBERS', label: 'Numbers', symbols: DECIMAL_DIGITS},
  {name: 'NUMBERS_WITHOUT_ZERO', label: 'Numbers without zero', symbols: '123456789'},
  {name: 'NUMBERS_X', label: 'Numbers and X', symbols: '0123456789X'},
  {name: 'HEX', label: 'Hex', symbols: '0123456789ABCDEF'},
  // capitals and digits without B, I, O, S and V, easily mistaken for 8, 1, 0, 5 and U
  {name: 'SYMBOL_31', label: 'Symbol31', symbols: 'ACDEFGHJKLMNPQRTUWXYZ0123456789'},
  {name: 'SYMBOL_32', label: 'Symbol32', symbols: 'ACDEFGHJKLMNPQRTUVWXYZ0123456789'},
];

/** The check digits as the API names them (vfps.x.formats.v1.CheckDigit). */
export const CHECK_DIGITS = [
  {name: 'CHECK_DIGIT_UNSPECIFIED', label: 'None'},
  {name: 'CHECK_DIGIT_LUHN_MOD_N', label: 'Luhn mod N'},
  {name: 'CHECK_DIGIT_DAMM', label: 'Damm', decimalOnly: true},
  {name: 'CHECK_DIGIT_VERHOEFF', label: 'Verhoeff', decimalOnly: true},
  {name: 'CHECK_DIGIT_X_GPAS_DAMM', label: "gPAS's Damm", tenCharacters: true},
  {name: 'CHECK_DIGIT_X_GPAS_VERHOEFF', label: "gPAS's Verhoeff", tenCharacters: true},
];

/** The preset whose characters these are, in its order; undefined for a custom alphabet. */
export function presetOf(symbols) {
  return ALPHABET_PRESETS.find((preset) => preset.symbols === symbols);
}

/** The label of a check digit as the API names it. */
export function checkDigitLabel(name) {
  return CHECK_DIGITS.find((kind) => kind.name === name)?.label ?? name;
}

const MIN_ALPHABET = 2;
const MAX_ALPHABET = 64;
const MAX_DELIMITER = 8;

/**
 * Why the settings make no format, in the words of the service's refusal; null when they make one.
 * The same rules as AlphabetFormat.of: 2 to 64 distinct characters from '!' to '~'; Damm and
 * Verhoeff on the ten digits only; a delimiter of 1 to 8 characters from space to '~', none of them
 * in the alphabet, exactly when there are groups.
 */
export function formatProblem({alphabet, checkDigit, groupSize, groupDelimiter}) {
  const symbols = [...alphabet];
  if (symbols.length < MIN_ALPHABET || symbols.length > MAX_ALPHABET) {
    return `The alphabet needs ${MIN_ALPHABET} to ${MAX_ALPHABET} characters; it has ${symbols.length}.`;
  }
  for (const [i, c] of symbols.entries()) {
    if (c < '!' || c > '~') {
      const code = c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0');
      return `The alphabet's character ${i + 1} is U+${code}; it may hold only printable ASCII characters from '!' to '~' (no space).`;
    }
    const first = symbols.indexOf(c);
    if (first !== i) {
      return `The alphabet has '${c}' twice (characters ${first + 1} and ${i + 1}); its characters must be distinct.`;
    }
  }
  if (CHECK_DIGITS.find((kind) => kind.name === checkDigit)?.decimalOnly && alphabet !== DECIMAL_DIGITS) {
    return `${checkDigitLabel(checkDigit)} works on the ten digits only: the alphabet must be ${DECIMAL_DIGITS}.`;
  }
  if (CHECK_DIGITS.find((kind) => kind.name === checkDigit)?.tenCharacters && symbols.length !== 10) {
    return `${checkDigit} works on alphabets of ten characters only; this one has ${symbols.length}.`;
  }
  if (!Number.isInteger(groupSize) || groupSize < 0 || groupSize > 1024) {
    return 'The group size must be a whole number from 0 (no groups) to 1024.';
  }
  if (groupSize > 0) {
    if (groupDelimiter.length < 1 || groupDelimiter.length > MAX_DELIMITER) {
      return `The group delimiter has ${groupDelimiter.length} characters; groups need 1 to ${MAX_DELIMITER}.`;
    }
    for (const c of groupDelimiter) {
      if (c < ' ' || c > '~') {
        return "The group delimiter may hold only printable ASCII characters (space to '~').";
      }
      if (alphabet.includes(c)) {
        return `The group delimiter has '${c}', which is in the alphabet; it must use other characters.`;
      }
    }
  }
  return null;
}

/** The values of the characters: each one's index in the alphabet. */
function valuesOf(symbols, drawn) {
  return [...drawn].map((c) => symbols.indexOf(c));
}

/**
 * Luhn mod N over the alphabet's order (N is its size): from the right, every second value,
 * starting with the last drawn one, is doubled and its two base-N digits added; the check digit
 * makes the sum a multiple of N. For the ten digits it is the Luhn digit of payment cards.
 */
export function luhnModN(symbols, drawn) {
  const n = symbols.length;
  const values = valuesOf(symbols, drawn);
  let sum = 0;
  let doubled = true;
  for (let i = values.length - 1; i >= 0; i--) {
    const addend = doubled ? 2 * values[i] : values[i];
    // a doubled value is below 2N: its base-N digits are the quotient (0 or 1) and the remainder
    sum = (sum + Math.floor(addend / n) + (addend % n)) % n;
    doubled = !doubled;
  }
  return symbols[(n - sum) % n];
}

/** Damm's totally anti-symmetric quasigroup of order 10: DAMM[interim][digit]. */
const DAMM = [
  [0, 3, 1, 7, 5, 9, 8, 6, 4, 2],
  [7, 0, 9, 2, 1, 5, 4, 8, 6, 3],
  [4, 2, 0, 6, 8, 7, 1, 3, 5, 9],
  [1, 7, 5, 0, 9, 8, 3, 4, 2, 6],
  [6, 1, 2, 3, 0, 4, 5, 9, 7, 8],
  [3, 6, 7, 4, 2, 0, 9, 5, 8, 1],
  [5, 8, 6, 9, 7, 2, 0, 1, 3, 4],
  [8, 9, 4, 5, 3, 6, 2, 0, 1, 7],
  [9, 4, 3, 8, 6, 1, 7, 2, 0, 5],
  [2, 5, 8, 1, 4, 3, 6, 7, 9, 0],
];

/** Damm, for the ten digits: the digits walk the quasigroup from 0; where they end is the check digit. */
export function damm(drawn) {
  let interim = 0;
  for (const digit of valuesOf(DECIMAL_DIGITS, drawn)) {
    interim = DAMM[interim][digit];
  }
  return DECIMAL_DIGITS[interim];
}

/** The dihedral group of order 10: rotations 0-4, reflections 5-9; VERHOEFF_MULTIPLY[a][b]. */
const VERHOEFF_MULTIPLY = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];

/** VERHOEFF_PERMUTE[k]: the permutation of position k (its period is 8), row 1 applied k times. */
const VERHOEFF_PERMUTE = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** The inverse of each element of the group. */
const VERHOEFF_INVERSE = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

/**
 * Verhoeff, for the ten digits: each digit, counted from the right with the check digit at position
 * 0, is permuted by its position's permutation and multiplied into the product; the check digit is
 * the inverse of the product, which makes the product over all of them 0.
 */
export function verhoeff(drawn) {
  const values = valuesOf(DECIMAL_DIGITS, drawn);
  let product = 0;
  for (let position = 1; position <= values.length; position++) {
    const digit = values[values.length - position];
    product = VERHOEFF_MULTIPLY[product][VERHOEFF_PERMUTE[position % 8][digit]];
  }
  return DECIMAL_DIGITS[VERHOEFF_INVERSE[product]];
}

/**
 * gPAS's Damm, for any alphabet of ten characters (their indexes are the digits): the quasigroup
 * walked over the drawn characters from the last to the first, that is standard Damm of them
 * reversed.
 */
export function gpasDamm(symbols, drawn) {
  let interim = 0;
  const values = valuesOf(symbols, drawn);
  for (let i = values.length - 1; i >= 0; i--) {
    interim = DAMM[interim][values[i]];
  }
  return symbols[interim];
}

/**
 * gPAS's Verhoeff, for any alphabet of ten characters: Verhoeff's tables with the positions counted
 * from 0 at the last drawn character, and the product itself as the check digit (no inverse).
 */
export function gpasVerhoeff(symbols, drawn) {
  const values = valuesOf(symbols, drawn);
  let product = 0;
  for (let position = 0; position < values.length; position++) {
    const value = values[values.length - 1 - position];
    product = VERHOEFF_MULTIPLY[product][VERHOEFF_PERMUTE[position % 8][value]];
  }
  return symbols[product];
}

/** The check digit of the drawn characters, '' for CHECK_DIGIT_UNSPECIFIED. */
export function checkDigitOf(kind, symbols, drawn) {
  switch (kind) {
    case 'CHECK_DIGIT_LUHN_MOD_N':
      return luhnModN(symbols, drawn);
    case 'CHECK_DIGIT_DAMM':
      return damm(drawn);
    case 'CHECK_DIGIT_VERHOEFF':
      return verhoeff(drawn);
    case 'CHECK_DIGIT_X_GPAS_DAMM':
      return gpasDamm(symbols, drawn);
    case 'CHECK_DIGIT_X_GPAS_VERHOEFF':
      return gpasVerhoeff(symbols, drawn);
    default:
      return '';
  }
}

/** The characters split into groups of size (0: one piece); the check digit counts in the last. */
export function groupsOf(characters, size) {
  if (!size || characters.length <= size) {
    return [characters];
  }
  const groups = [];
  for (let start = 0; start < characters.length; start += size) {
    groups.push(characters.slice(start, start + size));
  }
  return groups;
}

/**
 * An example pseudonym of the format: length characters of the alphabet picked by draws (whole
 * numbers, one per character, so that the example keeps its characters while the settings change),
 * their check digit, and the groups. Returns {drawn, checkDigit, groups, written}, written being
 * the core as the service writes it (prefix and suffix go around it). The format must have no
 * formatProblem.
 */
export function examplePseudonym({alphabet, checkDigit, groupSize, groupDelimiter}, length, draws) {
  let drawn = '';
  for (let i = 0; i < length; i++) {
    drawn += alphabet[draws[i % draws.length] % alphabet.length];
  }
  const check = checkDigitOf(checkDigit, alphabet, drawn);
  const groups = groupsOf(drawn + check, groupSize);
  return {drawn, checkDigit: check, groups, written: groups.join(groupDelimiter)};
}

const LARGE = [
  {value: 1e18, word: 'quintillion'},
  {value: 1e15, word: 'quadrillion'},
  {value: 1e12, word: 'trillion'},
  {value: 1e9, word: 'billion'},
  {value: 1e6, word: 'million'},
];

const WHOLE = new Intl.NumberFormat('en', {maximumFractionDigits: 0});

/**
 * A count, given by its decimal logarithm (so that counts beyond a double's range are written
 * too), as a reader takes it in: exact below a million ("59,049"), then in words with one decimal
 * ("26.4 trillion"), from a thousand quintillion on as a power of ten ("4.7 × 10^22").
 */
export function readableCount(log10) {
  if (log10 < 6) {
    return WHOLE.format(Math.round(10 ** log10));
  }
  const value = 10 ** log10;
  // the largest word the figure rounds to 1.0 or more of, so that 999.96 million is 1.0 billion
  const large = LARGE.find(({value: unit}) => value >= unit * 0.99995);
  if (large && value / large.value < 999.95) {
    return `${(value / large.value).toFixed(1)} ${large.word}`;
  }
  let exponent = Math.floor(log10);
  let mantissa = Number((10 ** (log10 - exponent)).toFixed(1));
  if (mantissa >= 10) {
    mantissa = 1;
    exponent += 1;
  }
  return `${mantissa.toFixed(1)} × 10^${exponent}`;
}

/**
 * The capacity of an alphabet of size characters drawn length times: "10^9 ≈ 1.0 billion", or
 * "9^4 = 6,561" while the count is exact.
 */
export function capacityText(size, length) {
  const log10 = length * Math.log10(size);
  const power = `${size}^${length}`;
  return log10 < 6 ? `${power} = ${readableCount(log10)}` : `${power} ≈ ${readableCount(log10)}`;
}
