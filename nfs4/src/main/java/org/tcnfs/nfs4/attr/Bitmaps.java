package org.tcnfs.nfs4.attr;

import java.util.Arrays;
import org.tcnfs.nfs4.xdr.bitmap4;

/** Small helpers for attribute masks ({@code bitmap4}): bit {@code n} is word {@code n / 32}, bit {@code n % 32}. */
public final class Bitmaps {
    private Bitmaps() {
    }

    /** A mask with exactly the given attribute numbers set. */
    public static bitmap4 of(int... attributes) {
        return new bitmap4(words(attributes));
    }

    /** The words of a mask with exactly the given attribute numbers set, without trailing zero words. */
    public static int[] words(int... attributes) {
        int max = -1;
        for (int a : attributes) {
            if (a < 0) {
                throw new IllegalArgumentException("negative attribute number " + a);
            }
            max = Math.max(max, a);
        }
        if (max < 0) {
            return new int[0];
        }
        int[] words = new int[max / 32 + 1];
        for (int a : attributes) {
            words[a / 32] |= 1 << (a % 32);
        }
        return words;
    }

    /** Whether {@code attribute} is set in {@code mask}. */
    public static boolean isSet(bitmap4 mask, int attribute) {
        return isSet(mask.value, attribute);
    }

    /** Whether {@code attribute} is set in {@code words}. */
    public static boolean isSet(int[] words, int attribute) {
        int w = attribute / 32;
        return attribute >= 0 && w < words.length && (words[w] & (1 << (attribute % 32))) != 0;
    }

    /** Whether no bit is set. */
    public static boolean isEmpty(bitmap4 mask) {
        for (int w : mask.value) {
            if (w != 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether the two masks have a bit in common. */
    public static boolean intersects(int[] a, int[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            if ((a[i] & b[i]) != 0) {
                return true;
            }
        }
        return false;
    }

    /** The set attribute numbers in ascending order. */
    public static int[] toNumbers(bitmap4 mask) {
        int count = 0;
        for (int w : mask.value) {
            count += Integer.bitCount(w);
        }
        int[] out = new int[count];
        int k = 0;
        for (int i = 0; i < mask.value.length; i++) {
            int w = mask.value[i];
            while (w != 0) {
                int bit = Integer.numberOfTrailingZeros(w);
                out[k++] = i * 32 + bit;
                w &= w - 1;
            }
        }
        return out;
    }

    /** A copy of {@code words} without trailing zero words. */
    public static int[] trim(int[] words) {
        int n = words.length;
        while (n > 0 && words[n - 1] == 0) {
            n--;
        }
        return Arrays.copyOf(words, n);
    }

    /** Whether the two masks set the same bits (trailing zero words do not matter). */
    public static boolean sameBits(int[] a, int[] b) {
        return Arrays.equals(trim(a), trim(b));
    }
}
