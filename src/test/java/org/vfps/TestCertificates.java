package org.vfps;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate authority made by {@code openssl} in a directory, and the server certificates it
 * issues for {@code localhost} and {@code 127.0.0.1}, in the PEM formats cert-manager writes.
 */
public final class TestCertificates {

  /** The key formats of a server certificate's private key. */
  public enum KeyType {
    /** RSA 2048 as {@code -----BEGIN RSA PRIVATE KEY-----} (PKCS#1, cert-manager's default). */
    RSA_PKCS1,
    /** P-256 as {@code -----BEGIN EC PRIVATE KEY-----} (SEC1). */
    EC_SEC1,
    /** RSA 2048 as {@code -----BEGIN PRIVATE KEY-----} (PKCS#8). */
    RSA_PKCS8
  }

  /** A server certificate and its key, and the serial number the certificate carries. */
  public record Issued(Path certificate, Path key, BigInteger serial) {}

  private final Path directory;
  private final Path authority;
  private final Path authorityKey;
  private final SecureRandom random = new SecureRandom();

  private TestCertificates(Path directory) {
    this.directory = directory;
    this.authority = directory.resolve("ca.pem");
    this.authorityKey = directory.resolve("ca.key");
  }

  /** A new certificate authority in {@code directory} ({@code ca.pem}, {@code ca.key}). */
  public static TestCertificates authority(Path directory) {
    TestCertificates certificates = new TestCertificates(directory);
    certificates.openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        certificates.authorityKey.toString(),
        "-out",
        certificates.authority.toString(),
        "-days",
        "2",
        "-subj",
        "/CN=vfps test CA");
    return certificates;
  }

  /** The authority's certificate, to trust. */
  public Path authorityCertificate() {
    return authority;
  }

  /**
   * Issues a certificate for {@code localhost} and {@code 127.0.0.1} with a random serial number,
   * as {@code name.crt} and {@code name.key}.
   */
  public Issued issue(String name, KeyType keyType) {
    Path key = directory.resolve(name + ".key");
    Path request = directory.resolve(name + ".csr");
    Path certificate = directory.resolve(name + ".crt");
    Path extensions = directory.resolve(name + ".ext");
    switch (keyType) {
      case RSA_PKCS1 -> openssl("genrsa", "-traditional", "-out", key.toString(), "2048");
      case RSA_PKCS8 -> openssl("genrsa", "-out", key.toString(), "2048");
      case EC_SEC1 ->
          openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key.toString());
    }
    openssl(
        "req",
        "-new",
        "-key",
        key.toString(),
        "-subj",
        "/CN=localhost",
        "-out",
        request.toString());
    BigInteger serial = new BigInteger(63, random).setBit(62);
    write(
        extensions,
        "basicConstraints=CA:FALSE\n"
            + "keyUsage=digitalSignature,keyEncipherment\n"
            + "extendedKeyUsage=serverAuth\n"
            + "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
    openssl(
        "x509",
        "-req",
        "-in",
        request.toString(),
        "-CA",
        authority.toString(),
        "-CAkey",
        authorityKey.toString(),
        "-set_serial",
        "0x" + serial.toString(16),
        "-days",
        "2",
        "-extfile",
        extensions.toString(),
        "-out",
        certificate.toString());
    return new Issued(certificate, key, serial);
  }

  /** A copy of {@code key} encrypted with a password (PKCS#8, AES-256), as {@code name.enc.key}. */
  public Path encrypt(Path key) {
    String name = key.getFileName().toString();
    Path encrypted = directory.resolve(name.substring(0, name.lastIndexOf('.')) + ".enc.key");
    openssl(
        "pkcs8",
        "-topk8",
        "-v2",
        "aes-256-cbc",
        "-passout",
        "pass:vfps-test",
        "-in",
        key.toString(),
        "-out",
        encrypted.toString());
    return encrypted;
  }

  /** A TLS context for clients that trusts this authority only. */
  public SSLContext clientContext() {
    try (InputStream in = Files.newInputStream(authority)) {
      KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      trusted.setCertificateEntry(
          "vfps-test-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void openssl(String... arguments) {
    List<String> command = new ArrayList<>(List.of("openssl"));
    command.addAll(List.of(arguments));
    try {
      Process process =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectErrorStream(true)
              .start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
