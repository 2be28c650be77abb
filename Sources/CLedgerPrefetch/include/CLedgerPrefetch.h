#ifndef CLEDGER_PREFETCH_H
#define CLEDGER_PREFETCH_H

/// Asks the processor to bring the cache line holding `address` into its caches, for reading,
/// without waiting for it: the prefetch instruction, which Swift has no way to emit. A hint
/// only; any address may be given, and nothing is read from it.
static inline void ledger_prefetch(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 0, 3);
#else
    (void)address;
#endif
}

#endif
