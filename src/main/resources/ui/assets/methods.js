// The pseudonym generation methods a namespace may use (all but UNSPECIFIED), as the API names
// them, with the one length some of them allow. A method that derives the pseudonym from the
// value gives a value exactly one pseudonym. Two depend on the deployment, which the session tells
// (`generation`): SHA-256 can be turned off, and VOPRF needs a VOPRF server, whose settings
// fix its length. A method this deployment does not generate stays listed, so that its namespaces
// read well, but is offered disabled with its `unavailable` note.

export const METHODS = [
  {name: 'PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED', label: 'Secure random, Base64URL'},
  {
    name: 'PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED',
    label: 'SHA-256, hex',
    fixedLength: 64,
    derived: true,
    unavailable: 'SHA-256, hex (turned off: Pseudonymization__Sha256__IsEnabled)',
  },
  {name: 'PSEUDONYM_GENERATION_METHOD_UUID4', label: 'UUID version 4', fixedLength: 36},
  {name: 'PSEUDONYM_GENERATION_METHOD_UUID7', label: 'UUID version 7', fixedLength: 36},
  {name: 'PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED', label: 'Random, hex'},
  {name: 'PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE62_ENCODED', label: 'Random, Base62'},
  {name: 'PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED', label: 'Random, Base32'},
  {
    name: 'PSEUDONYM_GENERATION_METHOD_VOPRF',
    label: 'VOPRF',
    derived: true,
    lengthNote: "The VOPRF server's key id and a dot go before them, unless Voprf__IncludeKeyIdInPseudonym is false.",
    unavailable: 'VOPRF (needs a VOPRF server: Voprf__Address)',
  },
  // an extension of vfps: the characters, check digit and groups are the namespace's xFormat
  {name: 'PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET', label: 'Alphabet with check digit', alphabet: true},
];

/**
 * The methods as this deployment offers them for new namespaces: each one it generates without an
 * `unavailable` note, VOPRF with the length its settings fix. `generation` is the session's
 * `{sha256, voprfLength}` (`voprfLength` null without a VOPRF server); missing, the service's
 * defaults hold: SHA-256 on, no VOPRF server.
 */
export function offeredMethods(generation) {
  const sha256 = generation?.sha256 ?? true;
  const voprfLength = generation?.voprfLength ?? null;
  return METHODS.map((m) => {
    switch (m.name) {
      case 'PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED':
        return sha256 ? {...m, unavailable: undefined} : m;
      case 'PSEUDONYM_GENERATION_METHOD_VOPRF':
        return voprfLength ? {...m, fixedLength: voprfLength, unavailable: undefined} : m;
      default:
        return m;
    }
  });
}

export const DEFAULT_LENGTH = 16;

/** The header bytes a secure random Base64URL core starts with (host hash, uptime tick). */
const BASE64URL_HEADER_BYTES = 8;

/**
 * How many characters a pseudonym's core has (prefix and suffix aside) for the method and its
 * length: the rule of the service's PseudonymGenerators.coreLength, mirrored here. A method of
 * fixed length (the `fixedLength` of offeredMethods) makes that many whatever the length.
 */
export function coreCharacters(method, length) {
  if (method.fixedLength) {
    return method.fixedLength;
  }
  switch (method.name) {
    case 'PSEUDONYM_GENERATION_METHOD_UNSPECIFIED':
    case 'PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED':
      // Base64URL without padding of the header and `length` random bytes
      return Math.ceil(((BASE64URL_HEADER_BYTES + length) * 4) / 3);
    default:
      return length;
  }
}

/**
 * The Length field's hint for the method and length: what the length counts, and the result. For
 * the alphabet method, `written` is how many characters the format writes for the length (check
 * digit and delimiters included), or null while the format's settings make none.
 */
export function lengthHint(method, length, written = null) {
  if (method.fixedLength) {
    return [`This method always makes ${method.fixedLength} characters.`, method.lengthNote].filter(Boolean).join(' ');
  }
  if (!Number.isInteger(length) || length < 1) {
    return 'A whole number from 1 to 1024.';
  }
  if (method.alphabet) {
    const rule = 'Characters drawn from the alphabet; the check digit and the group delimiters come on top';
    return written === null ? `${rule}.` : `${rule}: a length of ${length} makes ${written} characters between prefix and suffix.`;
  }
  const characters = coreCharacters(method, length);
  if (method.name === 'PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED') {
    return `Random bytes, written as Base64URL after an 8-byte header: a length of ${length} makes ${characters} characters between prefix and suffix.`;
  }
  return `Characters between prefix and suffix: a length of ${length} makes ${characters}.`;
}

/** The label of a method as the API names it. */
export function methodLabel(name) {
  if (name === 'PSEUDONYM_GENERATION_METHOD_UNSPECIFIED') {
    return 'Unspecified (secure random, Base64URL)';
  }
  return METHODS.find((m) => m.name === name)?.label ?? name;
}
