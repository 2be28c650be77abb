#ifndef CLEDGER_COMPRESSION_H
#define CLEDGER_COMPRESSION_H

#include <stddef.h>
#include <stdint.h>

/// The most bytes `ledger_lz_compress` writes for `count` bytes of input.
size_t ledger_lz_bound(size_t count);

/// Compresses `count` bytes at `source` into `destination`, which has room for
/// `ledger_lz_bound(count)` bytes, as a sequence of literal runs and back references
/// (Documentation/LogFormat.md, "Compressed blocks"); returns the bytes written, or 0 when it
/// could not allocate its table (the caller then stores the bytes as they are).
size_t ledger_lz_compress(const uint8_t *source, size_t count, uint8_t *destination);

/// Decompresses the `count` bytes at `source` into exactly `expected` bytes at `destination`.
/// Returns 0 when they decode to exactly that many, and -1 when they do not: a run or a
/// reference that reaches outside either buffer, or a reference to before the start. Reads
/// only inside `source` and writes only inside `destination`, whatever the input.
int ledger_lz_decompress(const uint8_t *source, size_t count, uint8_t *destination, size_t expected);

#endif
