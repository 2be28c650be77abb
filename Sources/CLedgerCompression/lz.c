// A byte-oriented LZ77 compressor and decompressor for snapshot state (decision 0034): literal
// runs and back references of at least four bytes within 65,535 bytes, in the layout that
// Documentation/LogFormat.md describes under "Compressed blocks". Written in C because the
// decompressor runs on every open and must copy at memory speed.
#include "CLedgerCompression.h"

#include <stdlib.h>
#include <string.h>

enum {
    minimum_match = 4,
    hash_bits = 16,
    window = 65535,
};

size_t ledger_lz_bound(size_t count) { return count + count / 255 + 16; }

static uint32_t read32(const uint8_t *p) {
    uint32_t value;
    memcpy(&value, p, 4);
    return value;
}

static uint32_t hash4(uint32_t value) { return (value * 2654435761u) >> (32 - hash_bits); }

/// Writes a length's extension bytes: 255 for each full 255, then the rest.
static uint8_t *write_extension(uint8_t *out, size_t length) {
    while (length >= 255) {
        *out++ = 255;
        length -= 255;
    }
    *out++ = (uint8_t)length;
    return out;
}

/// Writes one sequence: the token, the literal run, and the reference unless `match` is 0.
static uint8_t *write_sequence(uint8_t *out, const uint8_t *literals, size_t literal_count, size_t offset,
                               size_t match) {
    uint8_t *token = out++;
    size_t literal_nibble = literal_count < 15 ? literal_count : 15;
    size_t match_nibble = 0;
    if (literal_count >= 15) out = write_extension(out, literal_count - 15);
    memcpy(out, literals, literal_count);
    out += literal_count;
    if (match != 0) {
        size_t extra = match - minimum_match;
        match_nibble = extra < 15 ? extra : 15;
        *out++ = (uint8_t)(offset & 0xFF);
        *out++ = (uint8_t)(offset >> 8);
        if (extra >= 15) out = write_extension(out, extra - 15);
    }
    *token = (uint8_t)(literal_nibble << 4 | match_nibble);
    return out;
}

size_t ledger_lz_compress(const uint8_t *source, size_t count, uint8_t *destination) {
    static const uint32_t empty = 0xFFFFFFFFu;
    // On the heap: a thread's stack may be smaller than the table.
    uint32_t *table = malloc(sizeof(uint32_t) << hash_bits);
    if (table == NULL) return 0;
    for (size_t i = 0; i < (1u << hash_bits); i++) table[i] = empty;
    uint8_t *out = destination;
    size_t anchor = 0;
    size_t position = 0;
    while (count >= minimum_match && position <= count - minimum_match) {
        uint32_t value = read32(source + position);
        uint32_t slot = hash4(value);
        uint32_t candidate = table[slot];
        table[slot] = (uint32_t)position;
        if (candidate == empty || position - candidate > window || read32(source + candidate) != value) {
            position++;
            continue;
        }
        size_t match = minimum_match;
        while (position + match < count && source[candidate + match] == source[position + match]) match++;
        out = write_sequence(out, source + anchor, position - anchor, position - candidate, match);
        // The positions inside the match are entered too, so that later repeats find them.
        size_t end = position + match;
        for (size_t inner = position + 1; inner + minimum_match <= count && inner < end; inner++) {
            table[hash4(read32(source + inner))] = (uint32_t)inner;
        }
        position = end;
        anchor = end;
    }
    free(table);
    return (size_t)(write_sequence(out, source + anchor, count - anchor, 0, 0) - destination);
}

/// Reads a length's extension bytes into `length`; false when the input ends first.
static int read_extension(const uint8_t **in, const uint8_t *end, size_t *length) {
    uint8_t byte;
    do {
        if (*in >= end) return 0;
        byte = *(*in)++;
        *length += byte;
    } while (byte == 255);
    return 1;
}

/// Copies 16 bytes at a time from `from` to `to` until `count` are copied, writing up to 15
/// bytes past them: only where the caller checked that both buffers have that much room.
static void wild_copy(uint8_t *to, const uint8_t *from, size_t count) {
    uint8_t *end = to + count;
    do {
        memcpy(to, from, 16);
        to += 16;
        from += 16;
    } while (to < end);
}

int ledger_lz_decompress(const uint8_t *source, size_t count, uint8_t *destination, size_t expected) {
    const uint8_t *in = source;
    const uint8_t *in_end = source + count;
    uint8_t *out = destination;
    uint8_t *out_end = destination + expected;
    while (in < in_end) {
        uint8_t token = *in++;
        size_t literals = token >> 4;
        if (literals == 15 && !read_extension(&in, in_end, &literals)) return -1;
        if (literals > (size_t)(in_end - in) || literals > (size_t)(out_end - out)) return -1;
        if ((size_t)(in_end - in) >= literals + 16 && (size_t)(out_end - out) >= literals + 16) {
            wild_copy(out, in, literals);
        } else {
            memcpy(out, in, literals);
        }
        in += literals;
        out += literals;
        if (in == in_end) break;
        if (in_end - in < 2) return -1;
        size_t offset = (size_t)in[0] | (size_t)in[1] << 8;
        in += 2;
        size_t match = (token & 15);
        if (match == 15 && !read_extension(&in, in_end, &match)) return -1;
        match += minimum_match;
        if (offset == 0 || offset > (size_t)(out - destination) || match > (size_t)(out_end - out)) return -1;
        const uint8_t *from = out - offset;
        if (offset >= 16 && (size_t)(out_end - out) >= match + 16) {
            // Each 16 bytes read were written before the copy began or by an earlier step of it.
            wild_copy(out, from, match);
        } else if (offset >= match) {
            memcpy(out, from, match);
        } else {
            // An overlapping reference repeats the bytes it has just written.
            for (size_t i = 0; i < match; i++) out[i] = from[i];
        }
        out += match;
    }
    return out == out_end ? 0 : -1;
}
