package org.vfps.grpc;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import java.util.HashMap;
import java.util.Map;

/**
 * Service descriptors for server reflection whose fields carry their {@code json_name}. The
 * descriptors compiled into Java leave it out, so reflection clients that read JSON by the
 * descriptor (ghz, grpcurl) would know {@code original_value} but not the {@code originalValue}
 * that requests of the .NET service's users are written with.
 */
final class JsonNamedDescriptors {

  private static final Map<String, FileDescriptor> FILES = new HashMap<>();

  private JsonNamedDescriptors() {}

  /** The same service, from a copy of its file (and imports) with every json_name set. */
  static synchronized ServiceDescriptor of(ServiceDescriptor service) {
    return withJsonNames(service.getFile()).findServiceByName(service.getName());
  }

  private static FileDescriptor withJsonNames(FileDescriptor file) {
    FileDescriptor done = FILES.get(file.getName());
    if (done != null) {
      return done;
    }
    FileDescriptorProto.Builder proto = file.toProto().toBuilder();
    for (int i = 0; i < proto.getMessageTypeCount(); i++) {
      setJsonNames(proto.getMessageTypeBuilder(i), file.getMessageTypes().get(i));
    }
    FileDescriptor[] imports =
        file.getDependencies().stream()
            .map(JsonNamedDescriptors::withJsonNames)
            .toArray(FileDescriptor[]::new);
    try {
      FileDescriptor rebuilt = FileDescriptor.buildFrom(proto.build(), imports);
      FILES.put(file.getName(), rebuilt);
      return rebuilt;
    } catch (DescriptorValidationException e) {
      throw new IllegalStateException("the compiled descriptor of " + file.getName(), e);
    }
  }

  private static void setJsonNames(DescriptorProto.Builder message, Descriptor descriptor) {
    for (int i = 0; i < message.getFieldCount(); i++) {
      message.getFieldBuilder(i).setJsonName(descriptor.getFields().get(i).getJsonName());
    }
    for (int i = 0; i < message.getNestedTypeCount(); i++) {
      setJsonNames(message.getNestedTypeBuilder(i), descriptor.getNestedTypes().get(i));
    }
  }
}
