package org.vfps.rpc;

import com.google.protobuf.Descriptors.ServiceDescriptor;
import io.vertx.grpc.common.ServiceName;
import java.util.List;

/**
 * A gRPC service of the API and its methods, in the order of its proto.
 *
 * @param descriptor the service's descriptor, which reflection serves
 */
public record ApiService(ServiceName name, ServiceDescriptor descriptor, List<ApiMethod> methods) {

  public ApiService {
    methods = List.copyOf(methods);
  }
}
