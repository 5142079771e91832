package org.vfps.voprf.server;

import io.vertx.core.Future;
import io.vertx.core.http.HttpConnection;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.server.GrpcServerRequest;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.X509TrustManager;

/**
 * Callers known by their TLS client certificate: allowed when the SHA-1 or SHA-256 thumbprint of
 * the leaf certificate (hex of the digest of its DER encoding, as .NET prints it) is one of the
 * configured ones. No certificate, or one not allowed, is {@code UNAUTHENTICATED}. The caller's
 * name is the SHA-1 thumbprint in upper case. Thread-safe.
 */
final class ClientCertificates implements CallAuthentication {

  /**
   * Trusts any client certificate in the handshake, so that the thumbprint check decides and can
   * answer with a status instead of a failed handshake. Never used for server certificates.
   */
  static final X509TrustManager ACCEPT_ANY =
      new X509TrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
          // the thumbprint is checked per call
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType)
            throws java.security.cert.CertificateException {
          throw new java.security.cert.CertificateException("not a client trust manager");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
          return new X509Certificate[0];
        }
      };

  private final Set<String> allowed;

  /**
   * @param allowed lower-case hex SHA-1 (40 digits) or SHA-256 (64 digits) thumbprints
   */
  ClientCertificates(List<String> allowed) {
    this.allowed = Set.copyOf(allowed);
  }

  @Override
  public Future<String> caller(GrpcServerRequest<?, ?> call) {
    HttpConnection connection = call.connection();
    List<Certificate> certificates;
    try {
      certificates = connection.isSsl() ? connection.peerCertificates() : null;
    } catch (SSLPeerUnverifiedException e) {
      certificates = null;
    }
    if (certificates == null || certificates.isEmpty()) {
      return rejected("A client certificate is required.");
    }
    byte[] der;
    try {
      der = certificates.get(0).getEncoded();
    } catch (CertificateEncodingException e) {
      return rejected("The client certificate cannot be read.");
    }
    String sha1 = hex("SHA-1", der);
    if (allowed.contains(sha1) || allowed.contains(hex("SHA-256", der))) {
      return Future.succeededFuture(sha1.toUpperCase(java.util.Locale.ROOT));
    }
    return rejected("The client certificate is not allowed.");
  }

  static String hex(String algorithm, byte[] der) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(der));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is missing from this JDK", e);
    }
  }

  private static Future<String> rejected(String message) {
    return Future.failedFuture(new RefusedVoprfCall(GrpcStatus.UNAUTHENTICATED, message));
  }
}
