/*
 * SHA-256 (FIPS 180-4). The compression function runs either in portable C
 * or, on x86_64 processors with the SHA extensions, with sha256rnds2 /
 * sha256msg1 / sha256msg2 following the structure Intel published for them.
 * The choice is made once at run time and cached.
 */
#include "CLedgerChecksums.h"

#include <stdatomic.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define CL_SHA_X86 1
#else
#define CL_SHA_X86 0
#endif

/* Compresses `blocks` consecutive 64-byte blocks at `data` into `state`. */
typedef void (*sha256_blocks_fn)(uint32_t state[8], const uint8_t *data, size_t blocks);

_Alignas(16) static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t sha256_initial_state[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/* ---- portable compression ----------------------------------------------- */

static inline uint32_t sha_rotr(uint32_t x, unsigned n) {
    return (x >> n) | (x << (32 - n));
}

static inline uint32_t sha_load32_be(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void sha256_blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
    while (blocks-- > 0) {
        uint32_t w[64];
        for (int t = 0; t < 16; t++) {
            w[t] = sha_load32_be(data + 4 * t);
        }
        for (int t = 16; t < 64; t++) {
            uint32_t s0 = sha_rotr(w[t - 15], 7) ^ sha_rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = sha_rotr(w[t - 2], 17) ^ sha_rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t++) {
            uint32_t big_s1 = sha_rotr(e, 6) ^ sha_rotr(e, 11) ^ sha_rotr(e, 25);
            uint32_t ch = (e & f) ^ (~e & g);
            uint32_t t1 = h + big_s1 + ch + sha256_k[t] + w[t];
            uint32_t big_s0 = sha_rotr(a, 2) ^ sha_rotr(a, 13) ^ sha_rotr(a, 22);
            uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
            uint32_t t2 = big_s0 + maj;
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
        data += 64;
    }
}

/* ---- SHA-NI compression ---------------------------------------------------- */

#if CL_SHA_X86

/* Four rounds: message words `w` plus constants K[4g..4g+3], two per sha256rnds2. */
#define SHA_NI_ROUNDS4(w, g)                                                                   \
    do {                                                                                       \
        __m128i wk_ = _mm_add_epi32((w), _mm_load_si128((const __m128i *)&sha256_k[4 * (g)])); \
        state1 = _mm_sha256rnds2_epu32(state1, state0, wk_);                                  \
        state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(wk_, 0x0E));          \
    } while (0)

/* Completes the next four schedule words: next += W[t-7] terms, then sigma1 terms from cur. */
#define SHA_NI_SCHEDULE2(next, cur, prev) \
    (next) = _mm_sha256msg2_epu32(_mm_add_epi32((next), _mm_alignr_epi8((cur), (prev), 4)), (cur))

/* Starts four schedule words: older += sigma0 terms (needs the words in newer). */
#define SHA_NI_SCHEDULE1(older, newer) (older) = _mm_sha256msg1_epu32((older), (newer))

__attribute__((target("sha,sse4.1"))) static void sha256_blocks_shani(
    uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i byteswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

    /* Rearrange H0..H7 into the ABEF / CDGH register layout sha256rnds2 uses. */
    __m128i tmp = _mm_loadu_si128((const __m128i *)&state[0]);     /* lanes A B C D */
    __m128i state1 = _mm_loadu_si128((const __m128i *)&state[4]);  /* lanes E F G H */
    tmp = _mm_shuffle_epi32(tmp, 0xB1);                             /* lanes B A D C */
    state1 = _mm_shuffle_epi32(state1, 0x1B);                       /* lanes H G F E */
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);               /* lanes F E B A: ABEF */
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);                    /* lanes H G D C: CDGH */

    while (blocks-- > 0) {
        const __m128i abef_saved = state0;
        const __m128i cdgh_saved = state1;

        __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), byteswap);
        __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), byteswap);
        __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), byteswap);
        __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), byteswap);

        /* Group g holds schedule words 4g..4g+3 in w[g % 4]. In group g the words of
           group g + 1 are completed (msg2) before w[(g - 1) % 4] is reused (msg1). */
        SHA_NI_ROUNDS4(w0, 0);
        SHA_NI_ROUNDS4(w1, 1);
        SHA_NI_SCHEDULE1(w0, w1);
        SHA_NI_ROUNDS4(w2, 2);
        SHA_NI_SCHEDULE1(w1, w2);
        SHA_NI_ROUNDS4(w3, 3);
        SHA_NI_SCHEDULE2(w0, w3, w2);
        SHA_NI_SCHEDULE1(w2, w3);
        SHA_NI_ROUNDS4(w0, 4);
        SHA_NI_SCHEDULE2(w1, w0, w3);
        SHA_NI_SCHEDULE1(w3, w0);
        SHA_NI_ROUNDS4(w1, 5);
        SHA_NI_SCHEDULE2(w2, w1, w0);
        SHA_NI_SCHEDULE1(w0, w1);
        SHA_NI_ROUNDS4(w2, 6);
        SHA_NI_SCHEDULE2(w3, w2, w1);
        SHA_NI_SCHEDULE1(w1, w2);
        SHA_NI_ROUNDS4(w3, 7);
        SHA_NI_SCHEDULE2(w0, w3, w2);
        SHA_NI_SCHEDULE1(w2, w3);
        SHA_NI_ROUNDS4(w0, 8);
        SHA_NI_SCHEDULE2(w1, w0, w3);
        SHA_NI_SCHEDULE1(w3, w0);
        SHA_NI_ROUNDS4(w1, 9);
        SHA_NI_SCHEDULE2(w2, w1, w0);
        SHA_NI_SCHEDULE1(w0, w1);
        SHA_NI_ROUNDS4(w2, 10);
        SHA_NI_SCHEDULE2(w3, w2, w1);
        SHA_NI_SCHEDULE1(w1, w2);
        SHA_NI_ROUNDS4(w3, 11);
        SHA_NI_SCHEDULE2(w0, w3, w2);
        SHA_NI_SCHEDULE1(w2, w3);
        SHA_NI_ROUNDS4(w0, 12);
        SHA_NI_SCHEDULE2(w1, w0, w3);
        SHA_NI_SCHEDULE1(w3, w0);
        SHA_NI_ROUNDS4(w1, 13);
        SHA_NI_SCHEDULE2(w2, w1, w0);
        SHA_NI_ROUNDS4(w2, 14);
        SHA_NI_SCHEDULE2(w3, w2, w1);
        SHA_NI_ROUNDS4(w3, 15);

        state0 = _mm_add_epi32(state0, abef_saved);
        state1 = _mm_add_epi32(state1, cdgh_saved);
        data += 64;
    }

    /* Back from ABEF / CDGH to H0..H7. */
    tmp = _mm_shuffle_epi32(state0, 0x1B);         /* lanes A B E F */
    state1 = _mm_shuffle_epi32(state1, 0xB1);      /* lanes G H C D */
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);   /* lanes A B C D */
    state1 = _mm_alignr_epi8(state1, tmp, 8);      /* lanes E F G H */
    _mm_storeu_si128((__m128i *)&state[0], state0);
    _mm_storeu_si128((__m128i *)&state[4], state1);
}

#undef SHA_NI_ROUNDS4
#undef SHA_NI_SCHEDULE2
#undef SHA_NI_SCHEDULE1

static int sha256_cpu_has_sha_ni(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("ssse3");
}

#endif /* CL_SHA_X86 */

/* ---- dispatch ------------------------------------------------------------- */

/* -1: not decided yet; 0: portable; 1: SHA-NI. Racing first calls agree. */
static atomic_int sha256_hardware_choice = -1;

int cl_sha256_is_hardware(void) {
    int choice = atomic_load_explicit(&sha256_hardware_choice, memory_order_relaxed);
    if (choice < 0) {
#if CL_SHA_X86
        choice = sha256_cpu_has_sha_ni() ? 1 : 0;
#else
        choice = 0;
#endif
        atomic_store_explicit(&sha256_hardware_choice, choice, memory_order_relaxed);
    }
    return choice;
}

static sha256_blocks_fn sha256_selected_blocks(void) {
#if CL_SHA_X86
    if (cl_sha256_is_hardware()) {
        return sha256_blocks_shani;
    }
#endif
    return sha256_blocks_portable;
}

/* ---- streaming ------------------------------------------------------------ */

void cl_sha256_init(cl_sha256_ctx *ctx) {
    memcpy(ctx->state, sha256_initial_state, sizeof ctx->state);
    ctx->length = 0;
    memset(ctx->buffer, 0, sizeof ctx->buffer);
    ctx->buffered = 0;
}

static void sha256_update_with(cl_sha256_ctx *ctx, const uint8_t *p, size_t length, sha256_blocks_fn blocks_fn) {
    if (length == 0) {
        return;
    }
    ctx->length += length;
    if (ctx->buffered > 0) {
        size_t take = 64 - ctx->buffered;
        if (take > length) {
            take = length;
        }
        memcpy(ctx->buffer + ctx->buffered, p, take);
        ctx->buffered += (uint32_t)take;
        p += take;
        length -= take;
        if (ctx->buffered < 64) {
            return;
        }
        blocks_fn(ctx->state, ctx->buffer, 1);
        ctx->buffered = 0;
    }
    size_t whole = length / 64;
    if (whole > 0) {
        blocks_fn(ctx->state, p, whole);
        p += whole * 64;
        length -= whole * 64;
    }
    if (length > 0) {
        memcpy(ctx->buffer, p, length);
        ctx->buffered = (uint32_t)length;
    }
}

static void sha256_final_with(cl_sha256_ctx *ctx, uint8_t out[32], sha256_blocks_fn blocks_fn) {
    uint64_t bit_length = ctx->length * 8;
    uint32_t used = ctx->buffered;
    ctx->buffer[used++] = 0x80;
    if (used > 56) {
        memset(ctx->buffer + used, 0, 64 - used);
        blocks_fn(ctx->state, ctx->buffer, 1);
        used = 0;
    }
    memset(ctx->buffer + used, 0, 56 - used);
    for (int i = 0; i < 8; i++) {
        ctx->buffer[56 + i] = (uint8_t)(bit_length >> (56 - 8 * i));
    }
    blocks_fn(ctx->state, ctx->buffer, 1);
    for (int i = 0; i < 8; i++) {
        out[4 * i + 0] = (uint8_t)(ctx->state[i] >> 24);
        out[4 * i + 1] = (uint8_t)(ctx->state[i] >> 16);
        out[4 * i + 2] = (uint8_t)(ctx->state[i] >> 8);
        out[4 * i + 3] = (uint8_t)(ctx->state[i]);
    }
    ctx->buffered = 0;
}

void cl_sha256_update(cl_sha256_ctx *ctx, const void *data, size_t length) {
    sha256_update_with(ctx, (const uint8_t *)data, length, sha256_selected_blocks());
}

void cl_sha256_final(cl_sha256_ctx *ctx, uint8_t out[32]) {
    sha256_final_with(ctx, out, sha256_selected_blocks());
}

void cl_sha256(const void *data, size_t length, uint8_t out[32]) {
    sha256_blocks_fn blocks_fn = sha256_selected_blocks();
    cl_sha256_ctx ctx;
    cl_sha256_init(&ctx);
    sha256_update_with(&ctx, (const uint8_t *)data, length, blocks_fn);
    sha256_final_with(&ctx, out, blocks_fn);
}

void cl_sha256_portable(const void *data, size_t length, uint8_t out[32]) {
    cl_sha256_ctx ctx;
    cl_sha256_init(&ctx);
    sha256_update_with(&ctx, (const uint8_t *)data, length, sha256_blocks_portable);
    sha256_final_with(&ctx, out, sha256_blocks_portable);
}
