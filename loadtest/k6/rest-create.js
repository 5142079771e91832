// k6: REST POST /v1/namespaces/{namespace}/pseudonyms with a new random original value each time.
//   k6 run -e VFPS_HTTP=http://127.0.0.1:8080 -e NAMESPACE=bench loadtest/k6/rest-create.js
import http from 'k6/http';
import { check } from 'k6';
import { randomString } from './random.js';

export const options = {
  vus: Number(__ENV.VUS || 50),
  iterations: Number(__ENV.ITERATIONS || 100000),
  thresholds: { checks: ['rate==1'] },
};

const base = __ENV.VFPS_HTTP || 'http://127.0.0.1:8080';
const namespace = __ENV.NAMESPACE || 'bench';

export default () => {
  const response = http.post(
    `${base}/v1/namespaces/${encodeURIComponent(namespace)}/pseudonyms`,
    JSON.stringify({ originalValue: randomString(32) }),
    { headers: { 'Content-Type': 'application/json' } },
  );
  check(response, {
    'status is 200': (r) => r.status === 200,
    'has a pseudonym': (r) => r.json('pseudonym.pseudonymValue') !== undefined,
  });
};
