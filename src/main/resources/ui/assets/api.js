// The one way the pages talk to the service: the REST API under /v1 and the session under
// /ui/session. Every request goes through request(), the place for headers and for answers
// that concern every page.

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
}

async function request(method, path, body, signal) {
  const init = {method, headers: {Accept: 'application/json'}, credentials: 'same-origin', signal};
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
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

const segment = encodeURIComponent;

/** Who is signed in, what they may do, the version and the limits (see UiRoutes). */
export function session() {
  return request('GET', '/ui/session');
}

export function listNamespaces() {
  return request('GET', '/v1/namespaces').then((reply) => reply.namespaces ?? []);
}

export function getNamespace(name) {
  return request('GET', `/v1/namespaces/${segment(name)}`).then((reply) => reply.namespace);
}

/** draft: name, description, pseudonymGenerationMethod, pseudonymLength, prefix, suffix. */
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

/** The pseudonyms of the values, in their order (BatchCreate). */
export function batchCreate(namespace, originalValues, signal) {
  return request(
    'POST',
    `/v1/namespaces/${segment(namespace)}/pseudonyms:batchCreate`,
    {originalValues},
    signal,
  ).then((reply) => reply.pseudonyms ?? []);
}

/** The pseudonyms with their original values, in their order (BatchGet); 404 names a missing one. */
export function batchGet(namespace, pseudonymValues, signal) {
  return request(
    'POST',
    `/v1/namespaces/${segment(namespace)}/pseudonyms:batchGet`,
    {pseudonymValues},
    signal,
  ).then((reply) => reply.pseudonyms ?? []);
}
