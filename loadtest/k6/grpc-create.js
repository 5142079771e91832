// k6: gRPC PseudonymService/Create with a new random original value per request.
//   k6 run -e VFPS_GRPC=127.0.0.1:8081 -e NAMESPACE=bench loadtest/k6/grpc-create.js
// Create the namespace first (docs/api/grpc.md). The protos are loaded from src/main/proto, the google/api
// protos they import from target/proto (unpacked there by the build).
import grpc from 'k6/net/grpc';
import { check } from 'k6';
import { randomString } from './random.js';

const client = new grpc.Client();
client.load(['../../src/main/proto', '../../target/proto'], 'vfps/api/v1/pseudonyms.proto');

export const options = {
  vus: Number(__ENV.VUS || 50),
  iterations: Number(__ENV.ITERATIONS || 100000),
  thresholds: { checks: ['rate==1'] },
};

export default () => {
  if (__ITER === 0) {
    client.connect(__ENV.VFPS_GRPC || '127.0.0.1:8081', { plaintext: true });
  }
  const response = client.invoke('vfps.api.v1.PseudonymService/Create', {
    namespace: __ENV.NAMESPACE || 'bench',
    originalValue: randomString(32),
  });
  check(response, { 'status is OK': (r) => r && r.status === grpc.StatusOK });
};
