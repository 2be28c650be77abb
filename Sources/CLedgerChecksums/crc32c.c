/*
 * CRC32C (Castagnoli). The reflected polynomial is 0x82F63B78; the register
 * starts at ~crc and is inverted again at the end, as in LevelDB and iSCSI.
 *
 * Two implementations:
 *   - portable: slicing-by-8 tables, eight bytes per step;
 *   - x86_64 with SSE 4.2: the crc32 instruction, eight bytes per step, with
 *     long inputs split into three interleaved streams (the instruction has a
 *     latency of three cycles and a throughput of one per cycle), recombined
 *     with precomputed "shift by N zero bytes" tables.
 * The hardware path is chosen at run time once and cached.
 */
#include "CLedgerChecksums.h"

#include <pthread.h>
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>
#define CL_CRC_X86 1
#else
#define CL_CRC_X86 0
#endif

#define CL_CRC32C_POLY 0x82F63B78u

/* Stream lengths for the three-way interleave: long runs, then short runs. */
#define CL_CRC_LONG 8192
#define CL_CRC_SHORT 256

/* slicing[k][b]: the register after byte b followed by k zero bytes. */
static uint32_t crc_slicing[8][256];

#if CL_CRC_X86
/* shift[k][b]: the operator "append N zero bytes" applied to b << (8 * k). */
static uint32_t crc_shift_long[4][256];
static uint32_t crc_shift_short[4][256];
#endif

static pthread_once_t crc_once = PTHREAD_ONCE_INIT;
static int crc_use_hardware = 0;

/* Advances a raw register (no inversions) over `count` zero bytes. */
static uint32_t crc_register_over_zeros(uint32_t reg, size_t count) {
    for (size_t i = 0; i < count; i++) {
        reg = crc_slicing[0][reg & 0xFF] ^ (reg >> 8);
    }
    return reg;
}

#if CL_CRC_X86
/* Builds byte-indexed tables of the linear map "append `zeros` zero bytes". */
static void crc_build_shift_tables(uint32_t tables[4][256], size_t zeros) {
    uint32_t basis[32];
    for (int bit = 0; bit < 32; bit++) {
        basis[bit] = crc_register_over_zeros(UINT32_C(1) << bit, zeros);
    }
    for (int k = 0; k < 4; k++) {
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t image = 0;
            for (int bit = 0; bit < 8; bit++) {
                if (b & (UINT32_C(1) << bit)) {
                    image ^= basis[8 * k + bit];
                }
            }
            tables[k][b] = image;
        }
    }
}
#endif

static void crc_initialize(void) {
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t reg = b;
        for (int bit = 0; bit < 8; bit++) {
            reg = (reg >> 1) ^ (CL_CRC32C_POLY & (0u - (reg & 1u)));
        }
        crc_slicing[0][b] = reg;
    }
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t reg = crc_slicing[0][b];
        for (int k = 1; k < 8; k++) {
            reg = crc_slicing[0][reg & 0xFF] ^ (reg >> 8);
            crc_slicing[k][b] = reg;
        }
    }
#if CL_CRC_X86
    crc_build_shift_tables(crc_shift_long, CL_CRC_LONG);
    crc_build_shift_tables(crc_shift_short, CL_CRC_SHORT);
    __builtin_cpu_init();
    crc_use_hardware = __builtin_cpu_supports("sse4.2") ? 1 : 0;
#endif
}

static inline void crc_ensure_initialized(void) {
    pthread_once(&crc_once, crc_initialize);
}

static inline uint32_t crc_load32_le(const unsigned char *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Portable slicing-by-8 over a raw register. */
static uint32_t crc_portable_register(uint32_t reg, const unsigned char *p, size_t length) {
    while (length > 0 && ((uintptr_t)p & 7) != 0) {
        reg = crc_slicing[0][(reg ^ *p++) & 0xFF] ^ (reg >> 8);
        length--;
    }
    while (length >= 8) {
        uint32_t lo = reg ^ crc_load32_le(p);
        uint32_t hi = crc_load32_le(p + 4);
        reg = crc_slicing[7][lo & 0xFF] ^ crc_slicing[6][(lo >> 8) & 0xFF] ^
              crc_slicing[5][(lo >> 16) & 0xFF] ^ crc_slicing[4][lo >> 24] ^
              crc_slicing[3][hi & 0xFF] ^ crc_slicing[2][(hi >> 8) & 0xFF] ^
              crc_slicing[1][(hi >> 16) & 0xFF] ^ crc_slicing[0][hi >> 24];
        p += 8;
        length -= 8;
    }
    while (length > 0) {
        reg = crc_slicing[0][(reg ^ *p++) & 0xFF] ^ (reg >> 8);
        length--;
    }
    return reg;
}

#if CL_CRC_X86
static inline uint32_t crc_shift(uint32_t tables[4][256], uint32_t reg) {
    return tables[0][reg & 0xFF] ^ tables[1][(reg >> 8) & 0xFF] ^ tables[2][(reg >> 16) & 0xFF] ^
           tables[3][reg >> 24];
}

static inline uint64_t crc_load64(const unsigned char *p) {
    uint64_t word;
    memcpy(&word, p, sizeof word);
    return word;
}

/*
 * Processes `3 * stream` bytes at `*pp` as three interleaved streams and
 * folds them into one register, for as long as at least that much remains.
 */
__attribute__((target("sse4.2"))) static inline uint64_t crc_hw_three_way(
    uint64_t crc0, const unsigned char **pp, size_t *lengthp, size_t stream, uint32_t shift[4][256]) {
    const unsigned char *p = *pp;
    size_t length = *lengthp;
    while (length >= 3 * stream) {
        uint64_t crc1 = 0;
        uint64_t crc2 = 0;
        const unsigned char *end = p + stream;
        do {
            crc0 = _mm_crc32_u64(crc0, crc_load64(p));
            crc1 = _mm_crc32_u64(crc1, crc_load64(p + stream));
            crc2 = _mm_crc32_u64(crc2, crc_load64(p + 2 * stream));
            p += 8;
        } while (p < end);
        /* crc(A ++ B) = shift_|B|(crc(A)) ^ crc_from_zero(B) on raw registers. */
        crc0 = crc_shift(shift, (uint32_t)crc0) ^ (uint32_t)crc1;
        crc0 = crc_shift(shift, (uint32_t)crc0) ^ (uint32_t)crc2;
        p += 2 * stream;
        length -= 3 * stream;
    }
    *pp = p;
    *lengthp = length;
    return crc0;
}

__attribute__((target("sse4.2"))) static uint32_t crc_hardware_register(
    uint32_t reg, const unsigned char *p, size_t length) {
    uint64_t crc0 = reg;
    while (length > 0 && ((uintptr_t)p & 7) != 0) {
        crc0 = _mm_crc32_u8((uint32_t)crc0, *p++);
        length--;
    }
    crc0 = crc_hw_three_way(crc0, &p, &length, CL_CRC_LONG, crc_shift_long);
    crc0 = crc_hw_three_way(crc0, &p, &length, CL_CRC_SHORT, crc_shift_short);
    while (length >= 8) {
        crc0 = _mm_crc32_u64(crc0, crc_load64(p));
        p += 8;
        length -= 8;
    }
    while (length > 0) {
        crc0 = _mm_crc32_u8((uint32_t)crc0, *p++);
        length--;
    }
    return (uint32_t)crc0;
}
#endif

uint32_t cl_crc32c_extend(uint32_t crc, const void *data, size_t length) {
    if (length == 0) {
        return crc;
    }
    crc_ensure_initialized();
    const unsigned char *p = (const unsigned char *)data;
#if CL_CRC_X86
    if (crc_use_hardware) {
        return ~crc_hardware_register(~crc, p, length);
    }
#endif
    return ~crc_portable_register(~crc, p, length);
}

uint32_t cl_crc32c_extend_portable(uint32_t crc, const void *data, size_t length) {
    if (length == 0) {
        return crc;
    }
    crc_ensure_initialized();
    return ~crc_portable_register(~crc, (const unsigned char *)data, length);
}

int cl_crc32c_is_hardware(void) {
    crc_ensure_initialized();
    return crc_use_hardware;
}
