// Tries a validation regex on sample values for the namespace form's tester, off the page's
// thread: JavaScript's regular expressions may backtrack for a very long time on some patterns,
// and the page stops this worker when one does.

self.onmessage = (event) => {
  const {id, pattern, samples} = event.data;
  let regex;
  try {
    regex = new RegExp(pattern, 'u');
  } catch (e) {
    self.postMessage({id, error: e.message});
    return;
  }
  self.postMessage({id, passes: samples.map((sample) => regex.test(sample))});
};
