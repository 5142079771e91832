// CSV jobs as the CSV page shows them: one job's progress, read again every second or two until it
// ends, and the list of the caller's jobs, read again while one of them is queued or running. Only
// a job's id goes into an address; a job holds no original value but in its files.

import * as api from './api.js';
import {h, replace, messageArea, showMessage, clearMessage, formatNumber, formatTime, guarded} from './dom.js';

/** The words of a job's direction. */
export const DIRECTIONS = {
  CSV_JOB_DIRECTION_PSEUDONYMIZE: 'Pseudonymize',
  CSV_JOB_DIRECTION_DEPSEUDONYMIZE: 'Reveal original values',
  CSV_JOB_DIRECTION_IMPORT: 'Import',
  CSV_JOB_DIRECTION_EXPORT: 'Export',
};

const STATUSES = {
  CSV_JOB_STATUS_AWAITING_UPLOAD: 'Awaiting upload',
  CSV_JOB_STATUS_QUEUED: 'Queued',
  CSV_JOB_STATUS_RUNNING: 'Running',
  CSV_JOB_STATUS_COMPLETED: 'Completed',
  CSV_JOB_STATUS_FAILED: 'Failed',
  CSV_JOB_STATUS_CANCELLED: 'Cancelled',
  CSV_JOB_STATUS_STALLED: 'Stalled (no progress for a while; it resumes when a replica takes it up)',
};

const COMPLETED = 'CSV_JOB_STATUS_COMPLETED';
const AWAITING_UPLOAD = 'CSV_JOB_STATUS_AWAITING_UPLOAD';
const ENDED = new Set([COMPLETED, 'CSV_JOB_STATUS_FAILED', 'CSV_JOB_STATUS_CANCELLED']);
/** The statuses for which the list is read again: the job moves on without the page. */
const MOVING = new Set(['CSV_JOB_STATUS_QUEUED', 'CSV_JOB_STATUS_RUNNING', 'CSV_JOB_STATUS_STALLED']);

/** The newest jobs the list shows until all are asked for. */
const SHOWN_JOBS = 20;
const POLL_MILLIS = 1500;
const LIST_MILLIS = 3000;

/** Whether the job has ended: completed, failed or cancelled. */
export function ended(job) {
  return ENDED.has(job.status);
}

/** Whether a failed create says that CSV jobs are off (no object store is configured). */
export function jobsOff(error) {
  return Boolean(error?.failedPrecondition) && String(error.message).startsWith('CSV jobs are off');
}

function statusWord(job) {
  return STATUSES[job.status] ?? job.status ?? '';
}

/** 64-bit counters come as numbers; missing ones are 0. */
function count(value) {
  return Number(value ?? 0) || 0;
}

/**
 * The panel of one job (id `job`), hidden until a job is shown: its status, a progress bar, the
 * counters, the error of a failed job, Cancel while it has not ended and the download once it is
 * completed. onChange(job) is called when the status of the followed job changes.
 */
export function jobPanel(signal, onChange = () => {}) {
  const heading = h('h2', {id: 'job-heading', tabindex: -1}, 'Job');
  const status = h('strong', {id: 'job-status'});
  const about = h('span', {id: 'job-about'});
  const bar = h('progress', {id: 'job-progress', max: 1, value: 0, 'aria-label': 'Progress of the job'});
  const barText = h('p', {id: 'job-progress-text', class: 'summary', 'aria-live': 'polite'});
  const fact = (id, label) => {
    const value = h('dd', {id});
    return {value, nodes: [h('div', {}, h('dt', {}, label), value)]};
  };
  const rows = fact('job-rows', 'Rows');
  const malformed = fact('job-malformed', 'Malformed rows');
  const missing = fact('job-missing', 'Blank or placeholder cells');
  const unresolved = fact('job-unresolved', 'Unresolved values');
  const neutralized = fact('job-neutralized', 'Neutralized cells');
  const mistyped = fact('job-mistyped', 'Mistyped pseudonyms');
  const facts = h('dl', {class: 'facts', id: 'job-facts'}, rows.nodes, malformed.nodes, missing.nodes, unresolved.nodes, neutralized.nodes, mistyped.nodes);
  const error = h('p', {id: 'job-error', class: 'message error', role: 'alert'});
  const cancel = h('button', {type: 'button', class: 'secondary', id: 'job-cancel'}, 'Cancel the job');
  const download = h('p', {id: 'job-download-area'});
  const message = messageArea('job-message');
  const panel = h(
    'section',
    {class: 'card', id: 'job', hidden: true, 'aria-labelledby': 'job-heading'},
    heading,
    h('p', {}, status, ' ', about),
    bar,
    barText,
    facts,
    error,
    h('div', {class: 'actions'}, cancel),
    download,
    message,
  );

  let followed = null; // {id, timer, status}
  const stop = () => {
    if (followed) {
      clearTimeout(followed.timer);
      followed = null;
    }
  };
  signal.addEventListener('abort', stop);

  const draw = (job) => {
    panel.dataset.jobId = job.id;
    status.textContent = statusWord(job);
    const name = job.fileName ? ` · ${job.fileName}` : '';
    about.textContent = `· ${DIRECTIONS[job.direction] ?? job.direction}${name} · created ${formatTime(job.createdAt)}`;
    const total = count(job.totalBytes);
    const done = count(job.bytesProcessed);
    if (job.status === COMPLETED) {
      bar.value = 1;
    } else if (total > 0) {
      bar.value = Math.min(1, done / total);
    } else if (job.status === 'CSV_JOB_STATUS_RUNNING') {
      bar.removeAttribute('value'); // an export: its size is not known beforehand
    } else {
      bar.value = 0;
    }
    barText.textContent = total > 0 ? `${formatNumber(done)} of ${formatNumber(total)} bytes (${Math.floor((100 * Math.min(done, total)) / total)} %)` : '';
    rows.value.textContent = formatNumber(count(job.rowsProcessed));
    malformed.value.textContent = formatNumber(count(job.badDataRowCount));
    missing.value.textContent = formatNumber(count(job.missingValueCount));
    unresolved.value.textContent = formatNumber(count(job.unresolvedValueCount));
    neutralized.value.textContent = job.xNeutralizeFormulas ? formatNumber(count(job.xNeutralizedCellCount)) : 'off';
    mistyped.value.textContent = formatNumber(count(job.xMistypedPseudonymCount));
    const failed = job.status === 'CSV_JOB_STATUS_FAILED';
    error.hidden = !failed;
    error.textContent = failed ? job.errorMessage || 'The job failed.' : '';
    cancel.hidden = ended(job);
    if (job.status === COMPLETED && job.downloadUrl) {
      // another origin (the object store), whose answer is an attachment: the page stays
      replace(download, h('a', {href: job.downloadUrl, id: 'job-download', class: 'button primary'}, 'Download the result'), ' ', h('span', {class: 'hint'}, 'The link is valid for a limited time; Show the job again for a new one.'));
    } else {
      replace(download);
    }
  };

  const poll = async (id) => {
    let job;
    try {
      job = await api.getCsvJob(id, signal);
    } catch (e) {
      if (signal.aborted || followed?.id !== id) {
        return;
      }
      if (e.forbidden) {
        // the caller lost the right to the job's namespaces: asking again changes nothing
        showMessage(message, 'error', e.message);
        return;
      }
      showMessage(message, 'error', `The job's progress cannot be read: ${e.message}`);
      followed.timer = setTimeout(() => poll(id), POLL_MILLIS * 2);
      return;
    }
    if (followed?.id !== id) {
      return;
    }
    clearMessage(message);
    seen(job);
  };

  const seen = (job) => {
    draw(job);
    const changed = followed.status !== job.status;
    followed.status = job.status;
    if (!ended(job)) {
      followed.timer = setTimeout(() => poll(job.id), POLL_MILLIS);
    }
    if (changed) {
      onChange(job);
    }
  };

  cancel.addEventListener(
    'click',
    guarded(cancel, async () => {
      const id = followed?.id;
      if (!id) {
        return;
      }
      try {
        const job = await api.cancelCsvJob(id);
        if (followed?.id === id) {
          clearTimeout(followed.timer);
          seen(job);
        }
      } catch (e) {
        showMessage(message, 'error', e.message);
      }
    }),
  );

  return {
    panel,
    /** Shows the job and follows it until it ends; a completed one is read again for its link. */
    follow(job, focus) {
      stop();
      panel.hidden = false;
      clearMessage(message);
      followed = {id: job.id, timer: null, status: job.status};
      draw(job);
      if (job.status === COMPLETED && !job.downloadUrl) {
        poll(job.id);
      } else if (!ended(job)) {
        followed.timer = setTimeout(() => poll(job.id), POLL_MILLIS);
      }
      if (focus) {
        heading.focus();
      }
    },
    /** Shows a job being uploaded: sent of total bytes. */
    uploading(job, sent, total) {
      stop();
      panel.hidden = false;
      draw(job);
      status.textContent = 'Uploading';
      bar.value = total > 0 ? sent / total : 0;
      barText.textContent = `${formatNumber(sent)} of ${formatNumber(total)} bytes uploaded`;
      cancel.hidden = true;
    },
    /** Hides the panel and stops following. */
    clear() {
      stop();
      panel.hidden = true;
    },
  };
}

/**
 * The table of the caller's jobs (id `jobs`): created, file, direction, status, rows, with Show
 * (into the job panel), Cancel while it awaits its upload and, once completed, Download. Read again every few seconds while a job is
 * queued or running.
 */
export function jobsList(signal, show) {
  const heading = h('h2', {id: 'jobs-heading'}, 'Your jobs');
  const message = messageArea('jobs-message');
  const area = h('div', {id: 'jobs', class: 'table-area'});
  const section = h('section', {id: 'jobs-section', 'aria-labelledby': 'jobs-heading'}, heading, h('p', {class: 'hint'}, 'The jobs you created on the server, newest first (an administrator sees everyone’s). Their files are kept for a limited time.'), message, area);
  let timer = null;
  let reading = null;
  let again = false;
  let all = false; // the whole list, once asked for

  const downloadOf = (job, button) =>
    guarded(button, async () => {
      try {
        const read = await api.getCsvJob(job.id);
        if (read.downloadUrl) {
          location.assign(read.downloadUrl);
        } else {
          showMessage(message, 'error', 'The result of this job is no longer there.');
        }
      } catch (e) {
        showMessage(message, 'error', e.message);
      }
    });

  const cancelOf = (job, button) =>
    guarded(button, async () => {
      let outcome;
      try {
        await api.cancelCsvJob(job.id);
        outcome = ['success', `The job of ${formatTime(job.createdAt)} is cancelled.`];
      } catch (e) {
        outcome = ['error', e.message];
      }
      // the list read again clears the message: it goes after
      await refresh();
      showMessage(message, ...outcome);
    });

  const draw = (jobs) => {
    if (jobs.length === 0) {
      replace(area, h('p', {class: 'empty'}, 'No jobs yet.'));
      return;
    }
    const shown = all ? jobs : jobs.slice(0, SHOWN_JOBS);
    let more = null;
    if (shown.length < jobs.length) {
      more = h('button', {type: 'button', class: 'secondary small', id: 'jobs-all'}, `Show all ${formatNumber(jobs.length)} jobs`);
      more.addEventListener('click', () => {
        all = true;
        draw(jobs);
      });
    }
    const rows = shown.map((job) => {
      const showButton = h('button', {type: 'button', class: 'secondary small', id: `job-${job.id}-show`, 'aria-label': `Show the job of ${formatTime(job.createdAt)}`}, 'Show');
      showButton.addEventListener('click', () => show(job));
      let downloadButton = null;
      if (job.status === COMPLETED) {
        downloadButton = h('button', {type: 'button', class: 'secondary small', id: `job-${job.id}-download`}, 'Download');
        downloadButton.addEventListener('click', downloadOf(job, downloadButton));
      } else if (job.status === AWAITING_UPLOAD) {
        // a job whose file never came (a closed tab, a failed upload): its creator ends it here
        downloadButton = h('button', {type: 'button', class: 'secondary small', id: `job-${job.id}-cancel`, 'aria-label': `Cancel the job of ${formatTime(job.createdAt)}, which awaits its upload`}, 'Cancel');
        downloadButton.addEventListener('click', cancelOf(job, downloadButton));
      }
      return h(
        'tr',
        {'data-job-id': job.id},
        h('td', {class: 'time'}, formatTime(job.createdAt)),
        h('td', {class: 'name'}, job.fileName || ''),
        h('td', {}, DIRECTIONS[job.direction] ?? job.direction),
        h('td', {class: 'job-status'}, STATUSES[job.status]?.split(' (')[0] ?? job.status),
        h('td', {class: 'number'}, formatNumber(count(job.rowsProcessed))),
        h('td', {class: 'row-actions'}, showButton, downloadButton ? ' ' : null, downloadButton),
      );
    });
    replace(
      area,
      h(
        'table',
        {class: 'data', id: 'jobs-table'},
        h('caption', {class: 'visually-hidden'}, 'Your jobs'),
        h('thead', {}, h('tr', {}, ['Created', 'File', 'Direction', 'Status', 'Rows', ''].map((t, i) => h('th', {scope: 'col', class: i === 4 ? 'number' : false}, t)))),
        h('tbody', {}, rows),
      ),
      more ? h('p', {}, more) : null,
    );
  };

  const refresh = () => {
    if (reading) {
      again = true; // a job may have been created since the read began
      return reading;
    }
    reading = (async () => {
      clearTimeout(timer);
      try {
        const jobs = await api.listCsvJobs(signal);
        clearMessage(message);
        draw(jobs);
        if (jobs.some((job) => MOVING.has(job.status)) && !signal.aborted) {
          timer = setTimeout(refresh, LIST_MILLIS);
        }
      } catch (e) {
        if (!signal.aborted) {
          showMessage(message, 'error', `The jobs cannot be listed: ${e.message}`);
        }
      } finally {
        reading = null;
        if (again && !signal.aborted) {
          again = false;
          refresh();
        }
      }
    })();
    return reading;
  };
  signal.addEventListener('abort', () => clearTimeout(timer));

  return {section, refresh};
}
