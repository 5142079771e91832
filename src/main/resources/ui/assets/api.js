// The one way the pages talk to the service: the REST API under /v1 and the UI's own endpoints
// under /ui. Every request goes through request(), the place for headers and for answers that
// concern every page: a request that changes data carries the session's CSRF token, and a 401
// (the session has ended) renews the session once, else goes to the sign-in and comes back here.

/** A failed call: the HTTP status, the gRPC status code and the service's message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }

  get notFound() {
    return this.status === 404;
  }

  get forbidden() {
    return this.status === 403;
  }

  /** The service's configuration does not allow the call (FAILED_PRECONDITION), e.g. tokens off. */
  get failedPrecondition() {
    return this.code === 9;
  }
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let current = null; // the last session read: its CSRF token goes with every change
let renewing = null; // one renewal at a time, shared by the requests that need it

/** The address of the sign-in that comes back to this page. */
export function signInUrl() {
  return `/ui/authentication/login?returnUrl=${encodeURIComponent(location.pathname + location.search)}`;
}

async function request(method, path, body, signal, renewed = false) {
  const init = {method, headers: {Accept: 'application/json'}, credentials: 'same-origin', signal};
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (CHANGES.has(method) && current?.csrfToken) {
    init.headers['X-CSRF-Token'] = current.csrfToken;
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    if (e.name === 'AbortError') {
      throw e;
    }
    throw new ApiError(0, 14, 'The service cannot be reached. Check the connection and try again.');
  }
  if (response.status === 401 && current?.authorization && !path.startsWith('/ui/session')) {
    if (!renewed && (await renew())) {
      return request(method, path, body, signal, true);
    }
    location.assign(signInUrl());
    throw new ApiError(401, 16, 'Your session has ended. Signing in again…');
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    // not JSON: a proxy's error page, say; the status speaks for it
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      json?.code ?? 2,
      json?.message ?? `The service answered ${response.status} ${response.statusText}.`,
    );
  }
  return json ?? {};
}

/** Reads the session again (which renews it if it can); whether someone is signed in. */
function renew() {
  renewing ??= session()
    .then((read) => Boolean(read.user))
    .catch(() => false)
    .finally(() => (renewing = null));
  return renewing;
}

const segment = encodeURIComponent;

/**
 * Who is signed in, what they may do, the version and revision and the limits (see SessionRoutes).
 */
export async function session() {
  current = await request('GET', '/ui/session');
  return current;
}

/** Signs out here, then at the identity provider (the browser goes there). */
export async function signOut() {
  const reply = await request('POST', '/ui/authentication/logout');
  location.assign(reply.location ?? '/ui/');
}

/** For admins: the admin roles, the rules and the roles per namespace (Access control). */
export function accessRules() {
  return request('GET', '/ui/access');
}

export function listNamespaces() {
  return request('GET', '/v1/namespaces').then((reply) => reply.namespaces ?? []);
}

export function getNamespace(name) {
  return request('GET', `/v1/namespaces/${segment(name)}`).then((reply) => reply.namespace);
}

/** The namespaces whose parent it is, sorted by name. */
export function listChildren(name) {
  return request('GET', `/v1/namespaces/${segment(name)}/children`).then((reply) => reply.namespaces ?? []);
}

/**
 * draft: name, pseudonymGenerationMethod, pseudonymLength, pseudonymPrefix, pseudonymSuffix,
 * allowsMultiplePseudonyms, and optionally description, originalValueValidationRegex,
 * parentName with parentValidationMode.
 */
export function createNamespace(draft) {
  return request('POST', '/v1/namespaces', draft).then((reply) => reply.namespace);
}

export function deleteNamespace(name) {
  return request('DELETE', `/v1/namespaces/${segment(name)}`);
}

export function createPseudonym(namespace, originalValue) {
  return request('POST', `/v1/namespaces/${segment(namespace)}/pseudonyms`, {
    originalValue,
  }).then((reply) => reply.pseudonym);
}

/**
 * The value's pseudonyms, grown to count (in a namespace that allows several), by sequence
 * number.
 */
export function createPseudonyms(namespace, originalValue, count) {
  return request('POST', `/v1/namespaces/${segment(namespace)}/pseudonyms`, {
    originalValue,
    count,
  }).then((reply) => reply.pseudonyms ?? [reply.pseudonym]);
}

/** The stored pseudonyms of an original value, by sequence number, creating none; 404 when none. */
export function resolvePseudonyms(namespace, originalValue) {
  return request('POST', `/v1/namespaces/${segment(namespace)}/pseudonyms:resolve`, {
    originalValue,
  }).then((reply) => reply.pseudonyms ?? [reply.pseudonym]);
}

/** The reverse lookup: the pseudonym with its original value. */
export function getPseudonym(namespace, pseudonymValue) {
  return request(
    'GET',
    `/v1/namespaces/${segment(namespace)}/pseudonyms/${segment(pseudonymValue)}`,
  ).then((reply) => reply.pseudonym);
}

/** One page: {pseudonyms, nextPageToken, totalSize (when asked for)}. */
export function listPseudonyms(namespace, {pageSize = 25, pageToken = '', includeTotalSize = false, signal} = {}) {
  const query = new URLSearchParams({pageSize: String(pageSize)});
  if (pageToken) {
    query.set('pageToken', pageToken);
  }
  if (includeTotalSize) {
    query.set('includeTotalSize', 'true');
  }
  return request('GET', `/v1/namespaces/${segment(namespace)}/pseudonyms?${query}`, undefined, signal);
}

/** A batch method on the namespace's pseudonyms (POST …/pseudonyms:method): its pseudonyms, in their order. */
function pseudonymBatch(namespace, method, body, signal) {
  return request('POST', `/v1/namespaces/${segment(namespace)}/pseudonyms:${method}`, body, signal).then((reply) => reply.pseudonyms ?? []);
}

/** The pseudonyms of the values, in their order (BatchCreate). */
export function batchCreate(namespace, originalValues, signal) {
  return pseudonymBatch(namespace, 'batchCreate', {originalValues}, signal);
}

/** The pseudonyms with their original values, in their order (BatchGet); 404 names a missing one. */
export function batchGet(namespace, pseudonymValues, signal) {
  return pseudonymBatch(namespace, 'batchGet', {pseudonymValues}, signal);
}

// The access API (/x/v1/access/...): grants and service accounts for admins, access tokens for
// their owners and admins.

/** The grants of one namespace (not those of all namespaces), oldest first. */
export function listGrants(namespace) {
  return request('GET', `/x/v1/access/grants?${new URLSearchParams({namespace})}`).then((reply) => reply.grants ?? []);
}

/** Every grant: those of each namespace and those of all namespaces (allNamespaces). */
export function listAllGrants() {
  return request('GET', '/x/v1/access/grants').then((reply) => reply.grants ?? []);
}

/**
 * draft: namespace or allNamespaces, granteeType ('GRANTEE_TYPE_ROLE', 'GRANTEE_TYPE_EMAIL',
 * 'GRANTEE_TYPE_SERVICE_ACCOUNT'), grantee, canRead, canWrite, canReverseLookup.
 */
export function createGrant(draft) {
  return request('POST', '/x/v1/access/grants', draft).then((reply) => reply.grant);
}

/** Sets all three permissions of a grant. */
export function updateGrant(id, {canRead, canWrite, canReverseLookup}) {
  return request('PATCH', `/x/v1/access/grants/${segment(id)}`, {canRead, canWrite, canReverseLookup}).then((reply) => reply.grant);
}

export function deleteGrant(id) {
  return request('DELETE', `/x/v1/access/grants/${segment(id)}`);
}

/** Every service account, by name. */
export function listServiceAccounts() {
  return request('GET', '/x/v1/access/service-accounts').then((reply) => reply.serviceAccounts ?? []);
}

export function createServiceAccount(name, description) {
  return request('POST', '/x/v1/access/service-accounts', {name, description}).then((reply) => reply.serviceAccount);
}

/** Deletes the account with its grants and tokens. */
export function deleteServiceAccount(name) {
  return request('DELETE', `/x/v1/access/service-accounts/${segment(name)}`);
}

/**
 * The caller's personal tokens; for admins with all, every token, or with serviceAccount, that
 * account's. Newest first, never a secret.
 */
export function listAccessTokens({all = false, serviceAccount = ''} = {}, signal) {
  const query = new URLSearchParams();
  if (all) {
    query.set('all', 'true');
  }
  if (serviceAccount) {
    query.set('serviceAccount', serviceAccount);
  }
  const suffix = query.size ? `?${query}` : '';
  return request('GET', `/x/v1/access/tokens${suffix}`, undefined, signal).then((reply) => reply.accessTokens ?? []);
}

/**
 * A personal token of the signed-in user, or with serviceAccount one of that account (admins):
 * {accessToken, secret}, the only answer that holds the secret.
 */
export function createAccessToken({name, serviceAccount = '', lifetimeDays = 0}) {
  const body = {name, lifetimeDays};
  if (serviceAccount) {
    body.serviceAccount = serviceAccount;
  }
  return request('POST', '/x/v1/access/tokens', body);
}

/** Revokes a token by its row id (not its token id); the answer is the token, revoked. */
export function revokeAccessToken(id) {
  return request('POST', `/x/v1/access/tokens/${segment(id)}/revoke`, {}).then((reply) => reply.accessToken);
}

export function deleteAccessToken(id) {
  return request('DELETE', `/x/v1/access/tokens/${segment(id)}`);
}

// Consent withdrawal (/x/v1/namespaces/.../pseudonyms:...): POSTs, so that no original value is
// ever part of an address. how is 'delete' (every pseudonym of the value goes) or 'anonymize' (the
// original value goes, its pseudonyms stay).

const WITHDRAWALS = {
  delete: {one: 'delete', many: 'batchDelete'},
  anonymize: {one: 'anonymize', many: 'batchAnonymize'},
};

/** Withdraws one original value: the pseudonyms deleted or kept, by sequence number; 404 when it has none. */
export function withdraw(namespace, how, originalValue) {
  return request('POST', `/x/v1/namespaces/${segment(namespace)}/pseudonyms:${WITHDRAWALS[how].one}`, {
    originalValue,
  }).then((reply) => reply.pseudonyms ?? []);
}

/** Withdraws many original values: one {outcome, pseudonyms} per value, in their order. */
export function batchWithdraw(namespace, how, originalValues, signal) {
  return request(
    'POST',
    `/x/v1/namespaces/${segment(namespace)}/pseudonyms:${WITHDRAWALS[how].many}`,
    {originalValues},
    signal,
  ).then((reply) => reply.results ?? []);
}

// CSV jobs (/v1/csv-jobs): a file processed by the service. The browser uploads the file straight
// to the object store at the job's presigned address, then starts the job and reads its progress.
// A job's address holds only its id, never a value of the file.

/**
 * draft: direction ('CSV_JOB_DIRECTION_PSEUDONYMIZE', '..._DEPSEUDONYMIZE', '..._IMPORT',
 * '..._EXPORT'), delimiter, hasHeaderRow, fileName, columnMappings [{sourceColumn, targetColumn,
 * namespace, namespaceColumn}], and for a pseudonymization pseudonymizeMode. The job awaits its
 * upload (with uploadUrl and uploadHeaders), or for an export is queued at once. Fails with
 * failedPrecondition when CSV jobs are off.
 */
export function createCsvJob(draft) {
  return request('POST', '/v1/csv-jobs', draft);
}

/** Queues a job whose file is uploaded; the service checks the file's first row first. */
export function startCsvJob(id) {
  return request('POST', `/v1/csv-jobs/${segment(id)}:start`, {});
}

export function cancelCsvJob(id) {
  return request('POST', `/v1/csv-jobs/${segment(id)}:cancel`, {});
}

/** The job with its counters; with downloadUrl once completed. */
export function getCsvJob(id, signal) {
  return request('GET', `/v1/csv-jobs/${segment(id)}`, undefined, signal);
}

/** The caller's jobs (an admin's: everyone's), newest first. */
export function listCsvJobs(signal) {
  return request('GET', '/v1/csv-jobs', undefined, signal).then((reply) => reply.jobs ?? []);
}

/**
 * PUTs the file to a job's presigned upload address, with the headers the job names and without
 * the session (no cookie, no CSRF token: the address is the permission). onProgress(sent, total)
 * follows the upload. An XMLHttpRequest, since fetch reports no upload progress.
 */
export function uploadCsvFile(url, headers, file, onProgress, signal) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers ?? {})) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.addEventListener('progress', (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size));
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve();
      } else {
        reject(new ApiError(xhr.status, 2, `The object store refused the upload (${xhr.status} ${xhr.statusText}).`));
      }
    });
    // the browser tells the page nothing of why (a CORS rule, an address it cannot reach): its
    // console does
    xhr.addEventListener('error', () =>
      reject(new ApiError(0, 14, 'The upload to the object store failed: the browser could not reach it, or its CORS rule does not allow this page. The browser console says which.')),
    );
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was stopped.', 'AbortError')));
    if (signal?.aborted) {
      reject(new DOMException('The upload was stopped.', 'AbortError'));
      return;
    }
    signal?.addEventListener('abort', () => xhr.abort(), {once: true});
    xhr.send(file);
  });
}
