import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;

/**
 * Writes a Java trust store (PKCS12, password {@code changeit}, as the JDK's own) holding every
 * certificate of a PEM bundle: {@code java JavaTrustStore.java <bundle.pem> <cacerts>}. The base
 * images take Debian's CA bundle this way, since the JDK's trust store on this machine is a link
 * to the machine's own.
 */
public final class JavaTrustStore {
  public static void main(String[] args) throws Exception {
    Collection<? extends Certificate> certificates;
    try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
      certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    for (Certificate certificate : certificates) {
      X509Certificate x509 = (X509Certificate) certificate;
      String alias = x509.getSubjectX500Principal().getName() + " " + x509.getSerialNumber();
      store.setCertificateEntry(alias.toLowerCase(java.util.Locale.ROOT), x509);
    }
    try (OutputStream out = Files.newOutputStream(Path.of(args[1]))) {
      store.store(out, "changeit".toCharArray());
    }
    System.out.println(certificates.size() + " certificates");
  }
}
