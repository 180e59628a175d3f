package org.tcnfs.client.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RemotePathTest {

    @Test
    void normalizeDropsLeadingSlashesDotsAndEmptyComponents() {
        assertThat(RemotePath.normalize("/a//b/./c/")).isEqualTo("a/b/c");
        assertThat(RemotePath.normalize("/")).isEmpty();
    }

    @Test
    void dotDotIsRefused() {
        assertThatThrownBy(() -> RemotePath.normalize("a/../b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'..'");
    }

    @Test
    void parentNameJoinAndDepthAgree() {
        assertThat(RemotePath.parent("a/b/c")).isEqualTo("a/b");
        assertThat(RemotePath.parent("top")).isEmpty();
        assertThat(RemotePath.name("a/b/c")).isEqualTo("c");
        assertThat(RemotePath.join("", "x")).isEqualTo("x");
        assertThat(RemotePath.join("a/b", "x/y")).isEqualTo("a/b/x/y");
        assertThat(RemotePath.depth("a/b/c")).isEqualTo(3);
        assertThat(RemotePath.depth("")).isZero();
    }

    @Test
    void rootHasNoName() {
        assertThatThrownBy(() -> RemotePath.name("/")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void isWithinMatchesWholeComponentsOnly() {
        assertThat(RemotePath.isWithin("a/b/c", "a/b")).isTrue();
        assertThat(RemotePath.isWithin("a/b", "a/b")).isTrue();
        assertThat(RemotePath.isWithin("a/bc", "a/b")).isFalse();
        assertThat(RemotePath.isWithin("anything", "")).isTrue();
    }
}
