package io.railgun.node.http;

import io.railgun.node.frontend.ApiException;

/**
 * Strict UTF-8 validation of request bodies (RFC 3629, SPEC §3.6): Jackson decodes multi-byte
 * sequences without refusing overlong forms, surrogates or code points above U+10FFFF, so bodies
 * are checked before they are parsed. A pass over ASCII costs one comparison per byte. Stateless.
 */
final class Utf8 {
    private Utf8() {}

    /**
     * @throws ApiException 400 {@code invalid_utf8} naming the byte offset of the first invalid sequence
     */
    static void check(byte[] b, int length) {
        int i = 0;
        while (i < length) {
            int c = b[i];
            if (c >= 0) {
                i++;
                continue;
            }
            int n = sequenceLength(b, i, length);
            if (n < 0) {
                throw ApiException.badRequest("invalid_utf8", "the request body is not valid UTF-8 at byte " + i
                        + " (" + describe(-n) + "); send JSON encoded as UTF-8");
            }
            i += n;
        }
    }

    /** The length of the valid multi-byte sequence at {@code i}, or minus the reason it is invalid. */
    private static int sequenceLength(byte[] b, int i, int length) {
        int c0 = b[i] & 0xff;
        if (c0 < 0xc2) {
            return c0 < 0xc0 ? -1 : -2; // a continuation byte first, or an overlong 2-byte form
        }
        if (c0 < 0xe0) {
            return cont(b, i + 1, length) ? 2 : -1;
        }
        if (c0 < 0xf0) {
            if (!cont(b, i + 1, length) || !cont(b, i + 2, length)) {
                return -1;
            }
            int c1 = b[i + 1] & 0xff;
            if (c0 == 0xe0 && c1 < 0xa0) {
                return -2;
            }
            if (c0 == 0xed && c1 >= 0xa0) {
                return -3; // U+D800..U+DFFF
            }
            return 3;
        }
        if (c0 < 0xf5) {
            if (!cont(b, i + 1, length) || !cont(b, i + 2, length) || !cont(b, i + 3, length)) {
                return -1;
            }
            int c1 = b[i + 1] & 0xff;
            if (c0 == 0xf0 && c1 < 0x90) {
                return -2;
            }
            if (c0 == 0xf4 && c1 >= 0x90) {
                return -4;
            }
            return 4;
        }
        return -4; // F5..FF: beyond U+10FFFF (or not UTF-8 at all)
    }

    private static boolean cont(byte[] b, int i, int length) {
        return i < length && (b[i] & 0xc0) == 0x80;
    }

    private static String describe(int reason) {
        return switch (reason) {
            case 2 -> "an overlong form";
            case 3 -> "a UTF-16 surrogate";
            case 4 -> "a code point above U+10FFFF";
            default -> "a truncated or malformed sequence";
        };
    }
}
