package org.vfps.auth;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.X509KeyManager;
import org.vfps.config.TlsConfig;

/**
 * A certificate chain and its private key, read from the PEM files of a {@link TlsConfig} and
 * checked to belong together: the key signs what the certificate's public key verifies. Immutable.
 * Neither the key nor any part of it is ever put into a message.
 */
final class TlsCertificate {

  /** A larger file is neither a certificate nor a key, and is not read whole. */
  private static final int MAX_FILE_BYTES = 1 << 20;

  private static final Pattern PRIVATE_KEY_BEGIN =
      Pattern.compile("-----BEGIN ([A-Z0-9]+ )?PRIVATE KEY-----");
  private static final byte[] CHALLENGE =
      "vfps: does this key belong to this certificate?".getBytes(StandardCharsets.US_ASCII);

  private final Pem pem;
  private final X509Certificate leaf;

  private TlsCertificate(Pem pem, X509Certificate leaf) {
    this.pem = pem;
    this.leaf = leaf;
  }

  /** The bytes of the two files, as read at one moment. */
  static final class Pem {
    private final Path certificatePath;
    private final byte[] certificate;
    private final Path keyPath;
    private final byte[] key;

    private Pem(Path certificatePath, byte[] certificate, Path keyPath, byte[] key) {
      this.certificatePath = certificatePath;
      this.certificate = certificate;
      this.keyPath = keyPath;
      this.key = key;
    }

    /**
     * Reads both files of an enabled {@code config}; blocking. Symbolic links are followed anew on
     * every read, so a swapped directory (as Kubernetes updates a mounted Secret) is seen.
     *
     * @throws Unusable naming the setting when a file is missing, unreadable or larger than 1 MiB
     */
    static Pem read(TlsConfig config) throws Unusable {
      Path certificatePath = config.certificatePath().orElseThrow();
      Path keyPath = config.keyPath().orElseThrow();
      return new Pem(
          certificatePath,
          readFile(certificatePath, TlsConfig.CERTIFICATE_PATH),
          keyPath,
          readFile(keyPath, TlsConfig.KEY_PATH));
    }

    private static byte[] readFile(Path path, String setting) throws Unusable {
      try (InputStream in = Files.newInputStream(path)) {
        byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        if (bytes.length > MAX_FILE_BYTES) {
          throw new Unusable(setting + ": " + path + " is larger than 1 MiB: not a PEM file");
        }
        return bytes;
      } catch (NoSuchFileException e) {
        throw new Unusable(setting + ": " + path + " does not exist");
      } catch (AccessDeniedException e) {
        throw new Unusable(setting + ": " + path + " cannot be read (permission denied)");
      } catch (IOException e) {
        throw new Unusable(
            setting + ": " + path + " cannot be read (" + e.getClass().getSimpleName() + ")");
      }
    }
  }

  /** The files are not a usable certificate and key; the message names the setting at fault. */
  static final class Unusable extends Exception {

    private static final long serialVersionUID = 1L;

    Unusable(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Parses and checks the files as Vert.x will serve them; blocking (key parsing and a signature).
   *
   * @throws Unusable when the certificate file holds no PEM certificate, the key file no
   *     unencrypted PEM private key Vert.x reads (PKCS#8, PKCS#1 RSA, SEC1 EC), or the key does not
   *     belong to the first certificate
   */
  static TlsCertificate parse(Vertx vertx, Pem pem) throws Unusable {
    X509Certificate leaf = certificates(pem).get(0);
    String keyText = new String(pem.key, StandardCharsets.US_ASCII);
    if (keyText.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")
        || keyText.contains("Proc-Type: 4,ENCRYPTED")) {
      throw new Unusable(
          TlsConfig.KEY_PATH + ": " + pem.keyPath + " is encrypted; give an unencrypted key");
    }
    if (!PRIVATE_KEY_BEGIN.matcher(keyText).find()) {
      throw new Unusable(
          TlsConfig.KEY_PATH
              + ": "
              + pem.keyPath
              + " is not a PEM private key (no -----BEGIN ... PRIVATE KEY----- line)");
    }
    String algorithm = leaf.getPublicKey().getAlgorithm();
    PrivateKey key;
    try {
      KeyManager manager = keyCertOptions(pem).getKeyManagerFactory(vertx).getKeyManagers()[0];
      String alias = ((X509KeyManager) manager).chooseServerAlias(algorithm, null, null);
      key = alias == null ? null : ((X509KeyManager) manager).getPrivateKey(alias);
    } catch (Exception e) {
      // the parser's message is left out: it is about the key's bytes
      throw new Unusable(
          TlsConfig.KEY_PATH
              + ": "
              + pem.keyPath
              + " holds no unencrypted private key (PKCS#8, PKCS#1 RSA or SEC1 EC) for the "
              + algorithm
              + " certificate in "
              + TlsConfig.CERTIFICATE_PATH);
    }
    if (key == null || !belongTogether(key, leaf.getPublicKey())) {
      throw new Unusable(
          TlsConfig.KEY_PATH
              + ": the key in "
              + pem.keyPath
              + " does not belong to the certificate in "
              + TlsConfig.CERTIFICATE_PATH
              + " ("
              + pem.certificatePath
              + ", "
              + describe(leaf)
              + ")");
    }
    return new TlsCertificate(pem, leaf);
  }

  private static List<X509Certificate> certificates(Pem pem) throws Unusable {
    String problem = " is not a PEM certificate (no -----BEGIN CERTIFICATE----- line)";
    if (new String(pem.certificate, StandardCharsets.US_ASCII)
        .contains("-----BEGIN CERTIFICATE-----")) {
      problem = " holds a malformed certificate";
      try {
        Collection<? extends Certificate> parsed =
            CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem.certificate));
        List<X509Certificate> chain = new ArrayList<>();
        for (Certificate certificate : parsed) {
          chain.add((X509Certificate) certificate);
        }
        if (!chain.isEmpty()) {
          return chain;
        }
      } catch (CertificateException e) {
        // reported below
      }
    }
    throw new Unusable(TlsConfig.CERTIFICATE_PATH + ": " + pem.certificatePath + problem);
  }

  /** Whether {@code key} signs what {@code publicKey} verifies. */
  private static boolean belongTogether(PrivateKey key, PublicKey publicKey) {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          default -> null;
        };
    if (algorithm == null) {
      return false;
    }
    try {
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(CHALLENGE);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(publicKey);
      verifier.update(CHALLENGE);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static PemKeyCertOptions keyCertOptions(Pem pem) {
    return new PemKeyCertOptions()
        .setCertValue(Buffer.buffer(pem.certificate))
        .setKeyValue(Buffer.buffer(pem.key));
  }

  /** The certificate and key as Vert.x serves them. */
  PemKeyCertOptions keyCertOptions() {
    return keyCertOptions(pem);
  }

  /** Whether {@code other} holds the very bytes this certificate was read from. */
  boolean readFrom(Pem other) {
    return Arrays.equals(pem.certificate, other.certificate) && Arrays.equals(pem.key, other.key);
  }

  /** The serial number of the server's certificate, in hex as openssl prints it. */
  String serial() {
    return serial(leaf);
  }

  private static String serial(X509Certificate certificate) {
    return certificate.getSerialNumber().toString(16).toUpperCase(Locale.ROOT);
  }

  /** Whether the certificate is valid at {@code now}. */
  boolean validAt(Instant now) {
    return !now.isBefore(leaf.getNotBefore().toInstant())
        && !now.isAfter(leaf.getNotAfter().toInstant());
  }

  /** Subject, names, serial number, issuer and expiry, for the log. */
  String describe() {
    return describe(leaf);
  }

  private static String describe(X509Certificate certificate) {
    List<String> names = new ArrayList<>();
    try {
      Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
      if (alternatives != null) {
        for (List<?> alternative : alternatives) {
          names.add(String.valueOf(alternative.get(1)));
        }
      }
    } catch (CertificateException e) {
      // a certificate whose names cannot be decoded is still described by its subject
    }
    return "subject '"
        + certificate.getSubjectX500Principal().getName()
        + "'"
        + (names.isEmpty() ? "" : ", names " + String.join(", ", names))
        + ", serial "
        + serial(certificate)
        + ", issuer '"
        + certificate.getIssuerX500Principal().getName()
        + "', valid until "
        + certificate.getNotAfter().toInstant();
  }
}
