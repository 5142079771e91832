// Consent withdrawal as the namespace page and the CSV page offer it: the two ways, the words of
// their confirmation, who may withdraw, and the words of a batch's outcomes in the CSV report.

import {can, canAny} from './session.js';
import {h, formatNumber} from './dom.js';

/** The ways, by the name api.withdraw takes: what the choice and the confirming button say. */
export const WAYS = {
  delete: {choice: 'Delete its pseudonyms', button: 'Delete for good'},
  anonymize: {choice: 'Anonymize the original value', button: 'Anonymize for good'},
};

/** The word of each batch outcome in the report's withdrawal column. */
const OUTCOMES = {
  WITHDRAWAL_OUTCOME_DELETED: 'deleted',
  WITHDRAWAL_OUTCOME_ANONYMIZED: 'anonymized',
  WITHDRAWAL_OUTCOME_NOT_FOUND: 'not found',
};

/** The report's word for a blank or placeholder cell, which is not sent. */
export const MISSING = 'missing';

/** Why withdrawing is refused in the namespace (any namespace when it is absent); null when it is not. */
export function withdrawalDenial(session, namespace) {
  const may = (permission) => (namespace === undefined ? canAny(session, permission) : can(session, permission, namespace));
  if (may('write') && may('reverseLookup')) {
    return null;
  }
  return 'You may not withdraw consent here: that needs the permissions to create pseudonyms and to look up original values.';
}

/**
 * What a withdrawal does, for its confirmation: of one value, or with count, of that many values.
 */
export function consequences(how, namespace, count) {
  const one = count === undefined || count === 1;
  if (how === 'delete') {
    return [
      `Every pseudonym of ${one ? 'this value' : `these ${formatNumber(count)} values`} in `,
      h('strong', {}, namespace),
      ` is deleted. Data already released under them can no longer be linked to the ${one ? 'person' : 'persons'}; a new pseudonymization gives a new pseudonym. This cannot be undone.`,
    ];
  }
  return one
    ? 'The original value is replaced by one that reveals nothing; the pseudonyms stay, so released data keep their links, but nobody can look the person up from them any more. A new pseudonymization gives a new pseudonym. This cannot be undone.'
    : 'The original values are replaced by ones that reveal nothing; the pseudonyms stay, so released data keep their links, but nobody can look the persons up from them any more. A new pseudonymization gives a new pseudonym. This cannot be undone.';
}

/**
 * The lookup of batch.js's processCsv for withdrawing: value → 'deleted', 'anonymized' or 'not
 * found'. A value withdrawn in an earlier call of the run is not sent again and keeps its word, so
 * that a value on many rows reads alike on all of them; tally counts each word, per distinct value.
 */
export function withdrawer(batchWithdraw, how) {
  const withdrawn = new Map(); // namespace → Map value → word, for the values found
  const tally = {deleted: 0, anonymized: 0, 'not found': 0};
  const lookup = async (namespace, values, signal) => {
    const earlier = withdrawn.get(namespace) ?? new Map();
    withdrawn.set(namespace, earlier);
    const results = new Map();
    const asked = values.filter((value) => !earlier.has(value));
    const answers = asked.length > 0 ? await batchWithdraw(namespace, how, asked, signal) : [];
    if (answers.length !== asked.length) {
      throw new Error(`The service answered ${answers.length} results for ${asked.length} values.`);
    }
    asked.forEach((value, i) => {
      const word = OUTCOMES[answers[i].outcome];
      if (word === undefined) {
        throw new Error(`The service answered an unknown outcome: ${answers[i].outcome}.`);
      }
      tally[word]++;
      if (word !== 'not found') {
        earlier.set(value, word);
      }
      results.set(value, word);
    });
    for (const value of values) {
      if (!results.has(value)) {
        results.set(value, earlier.get(value));
      }
    }
    return results;
  };
  return {lookup, tally};
}
