package org.vfps.seal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SealerTest {

  private final Sealer sealer = new Sealer(SealingKeys.generate());

  @Test
  void theBlindIndexIsTheSameForTheSamePairAndDiffersAcrossNamespacesAndKeys() {
    String index = sealer.blindIndex("study-a", "patient-1");
    assertThat(sealer.blindIndex("study-a", "patient-1")).isEqualTo(index);
    assertThat(index).hasSize(43).doesNotContain("patient").isNotBlank();
    assertThat(sealer.blindIndex("study-b", "patient-1")).isNotEqualTo(index);
    // the namespace's length is hashed: "ab" + "c" is not "a" + "bc"
    assertThat(sealer.blindIndex("ab", "c")).isNotEqualTo(sealer.blindIndex("a", "bc"));
    assertThat(new Sealer(SealingKeys.generate()).blindIndex("study-a", "patient-1"))
        .isNotEqualTo(index);
  }

  @Test
  void aSealedValueOpensOnlyInItsOwnRowAndUnaltered() throws SealingException {
    String index = sealer.blindIndex("study-a", "patient-1");
    byte[] sealed = sealer.seal("study-a", index, "patient-1");
    assertThat(new String(sealed, java.nio.charset.StandardCharsets.ISO_8859_1))
        .doesNotContain("patient-1");
    assertThat(sealer.open("study-a", index, sealed)).isEqualTo("patient-1");
    // two seals of one value differ (a random nonce)
    assertThat(sealer.seal("study-a", index, "patient-1")).isNotEqualTo(sealed);

    String otherRow = sealer.blindIndex("study-a", "patient-2");
    assertThatThrownBy(() -> sealer.open("study-a", otherRow, sealed))
        .isInstanceOf(SealingException.class)
        .hasMessageContaining("altered or moved");
    assertThatThrownBy(() -> sealer.open("study-b", index, sealed))
        .isInstanceOf(SealingException.class);
    byte[] altered = sealed.clone();
    altered[altered.length - 1] ^= 1;
    assertThatThrownBy(() -> sealer.open("study-a", index, altered))
        .isInstanceOf(SealingException.class);
    assertThatThrownBy(() -> Sealer.version(new byte[] {1, 2, 3}))
        .isInstanceOf(SealingException.class);
  }

  @Test
  void aRotatedKeyFileSealsUnderTheNewVersionAndStillOpensTheOld() throws SealingException {
    String index = sealer.blindIndex("study-a", "patient-1");
    byte[] old = sealer.seal("study-a", index, "patient-1");
    Sealer rotated = new Sealer(sealer.keys().withNewDataKey());
    assertThat(rotated.blindIndex("study-a", "patient-1")).isEqualTo(index);
    assertThat(rotated.keyCheck()).isEqualTo(sealer.keyCheck());
    byte[] fresh = rotated.seal("study-a", index, "patient-1");
    assertThat(Sealer.version(old)).isEqualTo(1);
    assertThat(Sealer.version(fresh)).isEqualTo(2);
    assertThat(rotated.open("study-a", index, old)).isEqualTo("patient-1");
    assertThatThrownBy(() -> sealer.open("study-a", index, fresh))
        .isInstanceOf(SealingException.class)
        .hasMessageContaining("data key version 2");
  }

  @Test
  void aNewIndexSecretIndexesAnewWhileTheOldOneStaysUsable() throws Exception {
    Sealer rotated = new Sealer(sealer.keys().withNewIndexSecret());
    assertThat(rotated.currentIndexVersion()).isEqualTo(2);
    assertThat(rotated.blindIndex(1, "study-a", "patient-1"))
        .isEqualTo(sealer.blindIndex("study-a", "patient-1"));
    assertThat(rotated.blindIndex("study-a", "patient-1"))
        .isNotEqualTo(sealer.blindIndex("study-a", "patient-1"));
    assertThat(rotated.indexVersionOf(sealer.keyCheck())).hasValue(1);
    assertThat(rotated.indexVersionOf(rotated.keyCheck())).hasValue(2);
    assertThat(sealer.indexVersionOf(rotated.keyCheck())).isEmpty();
    // a file of the first shape, with one indexSecret, holds it as version 1
    String legacy =
        "{\"format\": \"vfps-sealing-keys/1\", \"indexSecret\": \""
            + java.util.Base64.getEncoder().encodeToString(new byte[32])
            + "\", \"dataKeys\": [{\"version\": 1, \"key\": \""
            + java.util.Base64.getEncoder().encodeToString(new byte[32])
            + "\"}]}";
    assertThat(SealingKeys.parse(legacy, "test").currentIndexVersion()).isEqualTo(1);
  }
}
