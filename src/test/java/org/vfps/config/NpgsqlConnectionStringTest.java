package org.vfps.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.config.ConnectionSettings.SslMode;

class NpgsqlConnectionStringTest {

  private static final Map<String, String> NO_ENVIRONMENT = Map.of();

  private static ConnectionSettings parse(String text) {
    return NpgsqlConnectionString.parse(text, NO_ENVIRONMENT).settings();
  }

  @Test
  void parsesComposeStringTakingUserAndPasswordFromEnvironment() {
    NpgsqlConnectionString.Parsed parsed =
        NpgsqlConnectionString.parse(
            "Host=postgresql:5432;Database=vfps;Timeout=60;Max Auto Prepare=5;"
                + "Application Name=vfps;Maximum Pool Size=50;",
            Map.of("PGUSER", "postgres", "PGPASSWORD", "postgres"));

    assertThat(parsed.settings())
        .isEqualTo(
            new ConnectionSettings(
                "postgresql",
                5432,
                "vfps",
                "postgres",
                "postgres",
                50,
                Duration.ofSeconds(60),
                SslMode.PREFER,
                "vfps"));
    assertThat(parsed.ignoredKeywords()).containsExactly("Max Auto Prepare");
  }

  @Test
  void parsesDevelopmentStringWithPortInHost() {
    ConnectionSettings settings =
        parse(
            "Host=127.0.0.1:35432;Username=postgres;Password=postgres;Database=vfps;Timeout=60;"
                + "Max Auto Prepare=5;Maximum Pool Size=50");

    assertThat(settings)
        .isEqualTo(
            new ConnectionSettings(
                "127.0.0.1",
                35432,
                "vfps",
                "postgres",
                "postgres",
                50,
                Duration.ofSeconds(60),
                SslMode.PREFER,
                null));
  }

  @Test
  void appliesNpgsqlDefaultsToWhatTheStringLeavesOut() {
    ConnectionSettings settings = parse("Host=db");

    String osUser = System.getProperty("user.name");
    assertThat(settings.port()).isEqualTo(5432);
    assertThat(settings.user()).isEqualTo(osUser);
    assertThat(settings.database()).isEqualTo(osUser);
    assertThat(settings.password()).isNull();
    assertThat(settings.maxPoolSize()).isEqualTo(32);
    assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(15));
    assertThat(settings.sslMode()).isEqualTo(SslMode.PREFER);
    assertThat(settings.applicationName()).isNull();
  }

  @Test
  void fallsBackToPgEnvironmentVariables() {
    ConnectionSettings settings =
        NpgsqlConnectionString.parse(
                "Timeout=5",
                Map.of(
                    "PGHOST", "pg.example",
                    "PGPORT", "6543",
                    "PGDATABASE", "pseudonyms",
                    "PGUSER", "alice",
                    "PGPASSWORD", "from-env"))
            .settings();

    assertThat(settings.host()).isEqualTo("pg.example");
    assertThat(settings.port()).isEqualTo(6543);
    assertThat(settings.database()).isEqualTo("pseudonyms");
    assertThat(settings.user()).isEqualTo("alice");
    assertThat(settings.password()).isEqualTo("from-env");
  }

  @Test
  void databaseDefaultsToTheUserNameAndHostToLocalhost() {
    ConnectionSettings settings =
        NpgsqlConnectionString.parse("Password=x", Map.of("PGUSER", "bob")).settings();

    assertThat(settings.host()).isEqualTo("localhost");
    assertThat(settings.database()).isEqualTo("bob");
  }

  @Test
  void valuesInTheStringWinOverEnvironment() {
    ConnectionSettings settings =
        NpgsqlConnectionString.parse(
                "Host=h;Port=1234;Database=d;Username=u;Password=p",
                Map.of(
                    "PGHOST", "other",
                    "PGPORT", "9999",
                    "PGDATABASE", "other",
                    "PGUSER", "other",
                    "PGPASSWORD", "other"))
            .settings();

    assertThat(settings)
        .extracting("host", "port", "database", "user", "password")
        .containsExactly("h", 1234, "d", "u", "p");
  }

  @Test
  void quotedPasswordMayContainSemicolonEqualsAndQuotes() {
    assertThat(parse("Host=h;Password='pa;ss''w=rd';Username=u").password())
        .isEqualTo("pa;ss'w=rd");
    assertThat(parse("Host=h;Password=\"a;\"\"b\"\"='c\" ;Username=u").password())
        .isEqualTo("a;\"b\"='c");
  }

  @Test
  void quotedValueKeepsItsInnerWhitespace() {
    assertThat(parse("Host=h;Password=' spaced ';Username=u").password()).isEqualTo(" spaced ");
  }

  @Test
  void keywordsAreCaseAndSpaceInsensitiveAndSynonymsAreAccepted() {
    ConnectionSettings settings =
        parse(
            "SERVER=h;port=1;DB=d;user id=u;PWD=p;max pool size=7;Connect Timeout=3;"
                + "sslmode=verifyfull;APPLICATIONNAME=app");

    assertThat(settings)
        .isEqualTo(
            new ConnectionSettings(
                "h", 1, "d", "u", "p", 7, Duration.ofSeconds(3), SslMode.VERIFY_FULL, "app"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"Username", "User Name", "User Id", "UserId", "User", "USERNAME"})
  void acceptsEveryUserKeyword(String keyword) {
    assertThat(parse("Host=h;" + keyword + "=carol").user()).isEqualTo("carol");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Maximum Pool Size", "Max Pool Size", "MaxPoolSize", "maximumpoolsize"})
  void acceptsEveryPoolSizeKeyword(String keyword) {
    assertThat(parse("Host=h;" + keyword + "=9").maxPoolSize()).isEqualTo(9);
  }

  @ParameterizedTest
  @CsvSource({
    "Disable, DISABLE",
    "allow, ALLOW",
    "PREFER, PREFER",
    "Require, REQUIRE",
    "VerifyCA, VERIFY_CA",
    "verify-ca, VERIFY_CA",
    "VerifyFull, VERIFY_FULL",
    "verify-full, VERIFY_FULL"
  })
  void parsesSslModes(String text, SslMode expected) {
    assertThat(parse("Host=h;SSL Mode=" + text).sslMode()).isEqualTo(expected);
    assertThat(parse("Host=h;SslMode=" + text).sslMode()).isEqualTo(expected);
  }

  @Test
  void toleratesWhitespaceAndEmptySegments() {
    ConnectionSettings settings = parse(" ; Host = h ;; Database = d ;Username= u ; ");

    assertThat(settings).extracting("host", "database", "user").containsExactly("h", "d", "u");
  }

  @Test
  void portInHostWinsOverPortKeyword() {
    assertThat(parse("Host=h:6000;Port=5000").port()).isEqualTo(6000);
    assertThat(parse("Port=5000;Host=h:6000").port()).isEqualTo(6000);
    assertThat(parse("Port=5000;Host=h").port()).isEqualTo(5000);
  }

  @Test
  void takesTheFirstOfSeveralHosts() {
    ConnectionSettings settings = parse("Host=a.example:5433,b.example:5434");

    assertThat(settings.host()).isEqualTo("a.example");
    assertThat(settings.port()).isEqualTo(5433);
  }

  @Test
  void acceptsIpv6Hosts() {
    assertThat(parse("Host=[::1]:5433")).extracting("host", "port").containsExactly("::1", 5433);
    assertThat(parse("Host=::1")).extracting("host", "port").containsExactly("::1", 5432);
  }

  @Test
  void reportsIgnoredKeywordsByNameOnly() {
    NpgsqlConnectionString.Parsed parsed =
        NpgsqlConnectionString.parse(
            "Host=h;Max Auto Prepare=5;Pooling=true;Command Timeout=30;Include Error Detail=true;"
                + "Trust Server Certificate=true;Something Unknown=secret-ish;Pooling=false",
            NO_ENVIRONMENT);

    assertThat(parsed.ignoredKeywords())
        .containsExactly(
            "Max Auto Prepare",
            "Pooling",
            "Command Timeout",
            "Include Error Detail",
            "Trust Server Certificate",
            "Something Unknown");
    assertThat(String.join(",", parsed.ignoredKeywords())).doesNotContain("secret-ish");
  }

  @Test
  void parsesPostgresqlUriWithPercentEncoding() {
    NpgsqlConnectionString.Parsed parsed =
        NpgsqlConnectionString.parse(
            "postgresql://us%40er:p%3Bss%2Fw+rd@db.example:6543/my%20db"
                + "?sslmode=verify-full&application_name=vfps&connect_timeout=5"
                + "&target_session_attrs=any",
            NO_ENVIRONMENT);

    assertThat(parsed.settings())
        .isEqualTo(
            new ConnectionSettings(
                "db.example",
                6543,
                "my db",
                "us@er",
                "p;ss/w+rd",
                32,
                Duration.ofSeconds(5),
                SslMode.VERIFY_FULL,
                "vfps"));
    assertThat(parsed.ignoredKeywords()).containsExactly("target_session_attrs");
  }

  @Test
  void parsesPostgresSchemeAndFillsTheRestFromEnvironment() {
    ConnectionSettings settings =
        NpgsqlConnectionString.parse(
                "POSTGRES://db.example", Map.of("PGUSER", "dave", "PGPASSWORD", "pw"))
            .settings();

    assertThat(settings)
        .extracting("host", "port", "database", "user", "password")
        .containsExactly("db.example", 5432, "dave", "dave", "pw");
  }

  @Test
  void uriQueryParametersSetUserPasswordAndDatabase() {
    ConnectionSettings settings =
        parse("postgresql://h/?user=eve&password=p%26w&dbname=d&port=6000");

    assertThat(settings)
        .extracting("host", "port", "database", "user", "password")
        .containsExactly("h", 6000, "d", "eve", "p&w");
  }

  @Test
  void badPortNamesTheKeywordAndHidesThePassword() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("Host=h;Port=5x;Password=s3cret"))
        .withMessage("Port '5x' is not a port number (1-65535)")
        .withMessageNotContaining("s3cret");
  }

  @Test
  void badPortInHostNamesTheHostKeyword() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("Password=s3cret;Host=h:99999"))
        .withMessage("Host port '99999' is not a port number (1-65535)");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Maximum Pool Size=0|Maximum Pool Size '0' is not a positive integer",
        "Timeout=2000|Timeout '2000' is not a number of seconds (0-1024)",
        "Timeout=soon|Timeout 'soon' is not a number of seconds (0-1024)",
        "SSL Mode=Sometimes|SSL Mode 'Sometimes' is not one of Disable, Allow, Prefer, Require,"
            + " VerifyCA, VerifyFull"
      })
  void badValuesNameTheirKeyword(String segment, String message) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("Host=h;Password=s3cret;" + segment))
        .withMessage(message);
  }

  @Test
  void unterminatedQuoteNamesTheKeywordButNotTheValue() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("Host=h;Password='s3cret;Database=d"))
        .withMessage("Password: the quoted value has no closing quote");
  }

  @Test
  void unquotedPasswordWithSemicolonFailsWithoutEchoingIt() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("Host=h;Password=s3c;ret"))
        .withMessageNotContaining("s3c")
        .withMessageNotContaining("ret");
  }

  @Test
  void badUriPortHidesTheValueAndThePassword() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("postgresql://u:s3cret@h:5x/db"))
        .withMessage("the URI's host port is not a port number (1-65535)");
  }

  @Test
  void badUriEscapeNamesThePartButNotItsValue() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("postgresql://u:s3cret%zz@h/db"))
        .withMessage("the password in the URI has an invalid percent escape");
  }

  @Test
  void badPgportIsNamed() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> NpgsqlConnectionString.parse("Host=h", Map.of("PGPORT", "x")))
        .withMessage("PGPORT 'x' is not a port number (1-65535)");
  }
}
