// The pseudonym generation methods a namespace may use (all but UNSPECIFIED), as the API names
// them, with the one length some of them allow. A method that derives the pseudonym from the
// value gives a value exactly one pseudonym. VOPRF is listed so that a namespace of the .NET
// service reads well, but this service cannot create such namespaces.

export const METHODS = [
  {name: 'PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED', label: 'Secure random, Base64URL'},
  {name: 'PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED', label: 'SHA-256, hex', fixedLength: 64, derived: true},
  {name: 'PSEUDONYM_GENERATION_METHOD_UUID4', label: 'UUID version 4', fixedLength: 36},
  {name: 'PSEUDONYM_GENERATION_METHOD_UUID7', label: 'UUID version 7', fixedLength: 36},
  {name: 'PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED', label: 'Random, hex'},
  {name: 'PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE62_ENCODED', label: 'Random, Base62'},
  {name: 'PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED', label: 'Random, Base32'},
  {
    name: 'PSEUDONYM_GENERATION_METHOD_VOPRF',
    label: 'VOPRF',
    unavailable: 'VOPRF (needs a VOPRF server, which this service does not have)',
  },
];

export const DEFAULT_LENGTH = 16;

/** The label of a method as the API names it. */
export function methodLabel(name) {
  if (name === 'PSEUDONYM_GENERATION_METHOD_UNSPECIFIED') {
    return 'Unspecified (secure random, Base64URL)';
  }
  return METHODS.find((m) => m.name === name)?.label ?? name;
}
