/*
 * CLedgerChecksums: CRC32C (Castagnoli) and SHA-256 for the ledger's storage
 * layer, using the processor's instructions where present (SSE 4.2 crc32 and
 * SHA-NI on x86_64) and portable C otherwise. The choice is made once, at the
 * first call, and cached; every entry point is thread-safe.
 */
#ifndef CLEDGER_CHECKSUMS_H
#define CLEDGER_CHECKSUMS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-extension"
#define CL_NULLABLE _Nullable
#define CL_NONNULL _Nonnull
#else
#define CL_NULLABLE
#define CL_NONNULL
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- CRC32C (polynomial 0x1EDC6F41, reflected 0x82F63B78) ---------------- */

/*
 * Extends a finalized CRC32C value `crc` (0 for an empty prefix) with
 * `length` bytes at `data`, and returns the finalized CRC32C of the whole.
 * Same semantics as LevelDB's crc32c::Extend: extend(extend(0, a), b) equals
 * extend(0, a ++ b). `data` may be NULL only when `length` is 0.
 */
uint32_t cl_crc32c_extend(uint32_t crc, const void *CL_NULLABLE data, size_t length);

/* Same result as cl_crc32c_extend, always computed with the portable tables. */
uint32_t cl_crc32c_extend_portable(uint32_t crc, const void *CL_NULLABLE data, size_t length);

/* 1 when cl_crc32c_extend uses the processor's CRC32C instruction, else 0. */
int cl_crc32c_is_hardware(void);

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------------- */

/* Streaming SHA-256 state; plain data, safe to copy by value. */
typedef struct cl_sha256_ctx {
    uint32_t state[8];   /* the chaining value H0..H7 */
    uint64_t length;     /* total bytes absorbed so far */
    uint8_t buffer[64];  /* the partial block not yet compressed */
    uint32_t buffered;   /* bytes held in buffer, 0..63 */
} cl_sha256_ctx;

/* Resets `ctx` to the SHA-256 initial state. */
void cl_sha256_init(cl_sha256_ctx *CL_NONNULL ctx);

/* Absorbs `length` bytes at `data` (NULL allowed only when length is 0). */
void cl_sha256_update(cl_sha256_ctx *CL_NONNULL ctx, const void *CL_NULLABLE data, size_t length);

/* Pads, writes the 32-byte digest to `out` and leaves `ctx` finalized (re-init before reuse). */
void cl_sha256_final(cl_sha256_ctx *CL_NONNULL ctx, uint8_t out[CL_NONNULL 32]);

/* One-shot SHA-256 of `length` bytes at `data` into `out`. */
void cl_sha256(const void *CL_NULLABLE data, size_t length, uint8_t out[CL_NONNULL 32]);

/* One-shot SHA-256 that always uses the portable compression function. */
void cl_sha256_portable(const void *CL_NULLABLE data, size_t length, uint8_t out[CL_NONNULL 32]);

/* 1 when SHA-256 compression uses the processor's SHA extensions, else 0. */
int cl_sha256_is_hardware(void);

#ifdef __cplusplus
}
#endif

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif /* CLEDGER_CHECKSUMS_H */
