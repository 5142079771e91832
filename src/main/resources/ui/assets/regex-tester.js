// The live tester of a namespace's validation regex: sample values, one per line, each marked as
// it would pass or fail as the user types. The browser's RegExp (Unicode mode) stands in for RE2,
// which the service uses; they agree on common patterns, and the service's check is the one that
// counts. The matching runs in a worker with a time limit, so a pattern that backtracks for ever
// cannot freeze the page.

import {h, replace, field} from './dom.js';

/** How long the browser may try a pattern on the samples before the tester gives up. */
const TIME_LIMIT_MS = 500;

// lookaround and backreferences: JavaScript has them, RE2 refuses them
const NOT_RE2 = /\(\?<?[=!]|\\[1-9]|\\k</;

/** The tester of the pattern typed into patternInput: {element, refresh, reset}. */
export function regexTester(patternInput) {
  const samples = h('textarea', {id: 'regex-samples', rows: 3, spellcheck: 'false', autocomplete: 'off'});
  const summary = h('p', {id: 'regex-summary', class: 'tester-summary', 'aria-live': 'polite'});
  const dialect = h('p', {id: 'regex-dialect', class: 'tester-note', hidden: true});
  const results = h('ul', {id: 'regex-results', class: 'tester-results', 'aria-label': 'Sample values'});
  let worker = null;
  let sequence = 0;
  let inFlight = null; // {id, timer}
  let queued = null; // the newest request, sent when the one in flight is answered

  const lines = () => samples.value.split('\n').filter((line) => line.trim() !== '');

  const show = (values, passes, text, kind = '') => {
    summary.textContent = text;
    summary.className = `tester-summary ${kind}`.trim();
    replace(
      results,
      passes
        ? values.map((value, i) =>
            h(
              'li',
              {class: passes[i] ? 'passes' : 'fails'},
              h('span', {class: 'verdict'}, passes[i] ? '✓ passes' : '✗ fails'),
              ' ',
              h('code', {}, value),
            ),
          )
        : null,
    );
  };

  const answered = (request, reply) => {
    if (request.id !== sequence) {
      return; // the user typed on: only the newest request is shown
    }
    if (reply.error) {
      show(
        request.samples,
        null,
        `Your browser cannot read this pattern (${reply.error}), so it cannot try it. RE2 may still accept it (it has (?i) flags, say, which the browser lacks): the service decides when you create the namespace.`,
        'warning',
      );
      return;
    }
    const passing = reply.passes.filter(Boolean).length;
    show(request.samples, reply.passes, `${passing} of ${reply.passes.length} sample value${reply.passes.length === 1 ? '' : 's'} would pass.`);
  };

  const send = (request) => {
    if (!worker) {
      try {
        worker = new Worker('/ui/assets/regex-worker.js');
      } catch (e) {
        show(request.samples, null, `The browser cannot try patterns here: ${e.message}`, 'warning');
        return;
      }
      worker.onmessage = (event) => {
        if (inFlight?.request.id !== event.data.id) {
          return;
        }
        const done = inFlight.request;
        clearTimeout(inFlight.timer);
        inFlight = null;
        answered(done, event.data);
        next();
      };
    }
    const timer = setTimeout(() => {
      worker.terminate();
      worker = null;
      inFlight = null;
      if (request.id === sequence) {
        show(
          request.samples,
          null,
          `Your browser gave up on this pattern after ${TIME_LIMIT_MS / 1000} s: its regular expressions can backtrack for a very long time, RE2 cannot. The service decides when you create the namespace.`,
          'warning',
        );
      }
      next();
    }, TIME_LIMIT_MS);
    inFlight = {request, timer};
    worker.postMessage({id: request.id, pattern: request.pattern, samples: request.samples});
  };

  const next = () => {
    if (!inFlight && queued) {
      const request = queued;
      queued = null;
      send(request);
    }
  };

  const refresh = () => {
    const pattern = patternInput.value;
    const values = lines();
    dialect.hidden = !NOT_RE2.test(pattern);
    dialect.textContent = dialect.hidden
      ? ''
      : 'This looks like a lookaround or a backreference, which RE2 does not have: the service will most likely refuse the pattern.';
    if (values.length === 0) {
      sequence++;
      queued = null;
      show(values, null, pattern ? 'Type sample values to try the pattern on them.' : '');
      return;
    }
    if (pattern === '') {
      sequence++;
      queued = null;
      show(values, values.map(() => true), 'No pattern: every value would pass.');
      return;
    }
    queued = {id: ++sequence, pattern, samples: values};
    next();
  };

  const reset = () => {
    samples.value = '';
    refresh();
  };

  samples.addEventListener('input', refresh);
  patternInput.addEventListener('input', refresh);
  const element = h(
    'div',
    {class: 'tester'},
    field(
      'Try sample values',
      samples,
      'One per line, checked as you type with your browser’s regular expressions. The service checks with RE2, and its check is the one that counts.',
    ),
    dialect,
    summary,
    results,
  );
  return {element, refresh, reset};
}
